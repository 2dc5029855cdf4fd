-- Entries, seats and attempts (docs/competitions.md, part 3), kept only on boards with
-- `join_required`, `max_players`, `max_attempts` or `groups`. Needs includes/entries.
--
-- `seats` (hash) player -> '<attempts used>:<entered 0|1>:<version>:<group>:<tier>' for every
-- player who entered or reported this season (group and tier '' off leagues); the version (the
-- board's version clock) changes with every change, so persistence compares the whole value. `waiting` (set) holds the entered players who hold no entry.
-- A player holds a seat while they hold an entry (ranked, or hidden by a ban) or wait in `waiting`,
-- so the seats taken are counted, never kept in a counter: a removal or an erasure frees a seat by
-- removing the entry (unless a batch holds attempts for the player: keepSeatForBatch), a ban keeps
-- it, and a board that gains a limit counts its players at once.

--
-- A server batch reserves before it writes (docs/competitions.md, part 3): `reservations` (hash)
-- player -> '<reports reserved>:<until, ms>' holds attempts, and `reserved` (zset) player -> until
-- (ms) the seat of a player who held none, both counted like used ones until the batch's reports
-- use them, the batch releases them (another board refused it), or they lapse.

-- The keys the seat rules read, beside the board's entries: { hidden, seats, waiting, reservations,
-- reserved } (the last two nil where reservations play no part).
local function seatKeys(hidden, seats, waiting, reservations, reserved)
  return { hidden = hidden, seats = seats, waiting = waiting, reservations = reservations, reserved = reserved,
           now = reservations and serverClock().ms }
end

-- The attempts a player has reserved and not used, and until when (0 and nil without any, or lapsed).
local function reservationOf(S, player)
  if not S.reservations then return 0, nil end
  local value = redis.call('HGET', S.reservations, player)
  if not value then return 0, nil end
  local count, till = string.match(value, '^(%d+):(%d+)$')
  if tonumber(till) <= S.now then return 0, nil end
  return tonumber(count), till
end

-- A player's seat record: { used = attempts used, reserved = attempts reserved by a batch,
-- entered = boolean, group, tier ('' for none) }.
local function seatRecord(S, player)
  local reserved = reservationOf(S, player)
  local value = redis.call('HGET', S.seats, player)
  if not value then return { used = 0, reserved = reserved, entered = false, group = '', tier = '' } end
  local used, entered, group, tier = string.match(value, '^(%d+):(%d):%d+:?(%d*):?(%d*)$')
  return { used = tonumber(used), reserved = reserved, entered = entered == '1', group = group, tier = tier }
end

local function writeSeat(S, player, record, version)
  redis.call('HSET', S.seats, player,
    record.used .. ':' .. (record.entered and '1' or '0') .. ':' .. version .. ':' .. record.group .. ':' .. record.tier)
end

-- The seats taken this season (reserved ones included).
local function seatsTaken(E, S)
  local reserved = S.reserved and redis.call('ZCOUNT', S.reserved, '(' .. S.now, '+inf') or 0
  return redis.call('ZCARD', E.ranking) + redis.call('HLEN', S.hidden) + redis.call('SCARD', S.waiting) + reserved
end

local function holdsEntry(E, S, player)
  return entryOf(E, player) ~= nil or redis.call('HEXISTS', S.hidden, player) == 1
end

-- Whether a batch holds a seat for the player (one they held none of when it reserved, or kept
-- for it since: keepSeatForBatch).
local function seatReserved(S, player)
  local till = S.reserved and redis.call('ZSCORE', S.reserved, player)
  return till ~= nil and till ~= false and tonumber(till) > S.now
end

local function holdsSeat(E, S, player)
  if holdsEntry(E, S, player) or redis.call('SISMEMBER', S.waiting, player) == 1 then return true end
  return seatReserved(S, player)
end

-- A seat that goes (a removal, a rejection, a shadow ban's end) while a batch holds attempts for
-- its player stays reserved for the batch, as long as the attempts: the batch was judged holding
-- it, so its report lands, as a report of the player made just before would have.
local function keepSeatForBatch(S, player)
  local held, till = reservationOf(S, player)
  if held == 0 then return end
  redis.call('ZADD', S.reserved, till, player)
  -- The key may be new here (the batch reserved no seat): it expires with the reservation.
  local left = tonumber(till) - S.now
  if redis.call('PTTL', S.reserved) < left then redis.call('PEXPIRE', S.reserved, left) end
end

-- Reserves `count` reports of a batch (an attempt each, and a seat if the player holds none) for
-- `ms`; reserving again adds to what the player holds.
local function reserve(E, S, player, count, ms)
  local held = reservationOf(S, player)
  local till = S.now + ms
  -- A seat reserved already lasts as long as the attempts; a player holding none gets one.
  if redis.call('ZSCORE', S.reserved, player) or not holdsSeat(E, S, player) then redis.call('ZADD', S.reserved, till, player) end
  redis.call('HSET', S.reservations, player, (held + count) .. ':' .. string.format('%.0f', till))
  redis.call('PEXPIRE', S.reservations, ms)
  redis.call('PEXPIRE', S.reserved, ms)
end

-- Gives back `count` reserved reports of the player (used by a report, or released by the batch);
-- the seat goes with the last one.
local function release(S, player, count)
  local held, till = reservationOf(S, player)
  if held <= count then
    redis.call('HDEL', S.reservations, player)
    redis.call('ZREM', S.reserved, player)
  else
    redis.call('HSET', S.reservations, player, (held - count) .. ':' .. till)
  end
end

-- The board's rules as the caller passes them: { join = boolean, maxPlayers, maxAttempts,
-- groupSize (numbers or nil) }, or nil for a board without any.
local function seatRules(join, maxPlayers, maxAttempts, groupSize)
  if join == '' and maxPlayers == '' and maxAttempts == '' and groupSize == '' then return nil end
  return { join = join == '1', maxPlayers = tonumber(maxPlayers), maxAttempts = tonumber(maxAttempts), groupSize = tonumber(groupSize) }
end

-- Why the rules refuse a report of `player` (in the API's order: entry, seat, attempts): 7 not
-- entered, 8 the board is full, 9 no attempt left; nil when they accept it.
local function seatRefusal(E, S, rules, player, record)
  -- A player holding an entry (from before the board required entry) is in already.
  if rules.join and not record.entered and not holdsEntry(E, S, player) then return 7 end
  if rules.maxPlayers and not holdsSeat(E, S, player) and seatsTaken(E, S) >= rules.maxPlayers then return 8 end
  if rules.maxAttempts and record.used + record.reserved >= rules.maxAttempts then return 9 end
  return nil
end

-- The attempts left after `record` (nil without a limit); a batch's reports in flight are left out,
-- so its answers count down as its reports land.
local function attemptsLeft(rules, record)
  return rules.maxAttempts and math.max(rules.maxAttempts - record.used, 0) or nil
end

-- League groups (docs/competitions.md, part 6), per season. `groups` (hash): 'n' -> the last group
-- number given, '<group>' -> '<tier>:<members>', 'm<group>' -> its members, space-separated (at most
-- 1,000); `groupIndex` (zset) every group, `groupRoom` (zset) the groups with room, both scored
-- tier * 2^32 + group number, so the first of a tier's range is its earliest-created group;
-- `tiers` (hash, kept across seasons) player -> tier, absent for the lowest (0).
local TIER_SPAN = 4294967296

-- A field of `tiers` no player id can be: the ended season whose league moves are not all applied
-- yet (set by resetSeason, cleared by applyGroupMoves once every group has moved).
local MOVES_DUE = ':moves'

-- Stops a script before it writes anything when the player would join a group at a tier the last
-- season's moves have yet to settle: the caller applies them (LBMOVES) and asks again.
local function awaitMoves(G)
  local due = redis.call('HGET', G.tiers, MOVES_DUE)
  if due then error(redis.error_reply('LBMOVES ' .. due .. ' the last season\'s league moves are not all applied')) end
end

local function groupKeys(groups, index, room, tiers)
  return { groups = groups, index = index, room = room, tiers = tiers }
end

-- Puts the player in the earliest-created group of their tier with room, or in a new one; one step
-- with the count, so no group ever holds more than `size`. The group and tier, as strings.
local function joinGroup(G, player, size)
  local tier = tonumber(redis.call('HGET', G.tiers, player) or '0')
  local low = tier * TIER_SPAN
  local group, count
  -- A group at its size leaves the room as it fills; one found full all the same (its size came from
  -- settings read before a change) leaves it now, and the next one is tried.
  repeat
    group = redis.call('ZRANGEBYSCORE', G.room, low, low + TIER_SPAN - 1, 'LIMIT', 0, 1)[1]
    count = group and tonumber(string.match(redis.call('HGET', G.groups, group), ':(%d+)$')) or 0
    if group and count >= size then redis.call('ZREM', G.room, group) end
  until not group or count < size
  if not group then
    group = tostring(redis.call('HINCRBY', G.groups, 'n', 1))
    redis.call('ZADD', G.index, low + tonumber(group), group)
    redis.call('ZADD', G.room, low + tonumber(group), group)
  end
  count = count + 1
  redis.call('HSET', G.groups, group, tier .. ':' .. count)
  local members = redis.call('HGET', G.groups, 'm' .. group)
  redis.call('HSET', G.groups, 'm' .. group, members and (members .. ' ' .. player) or player)
  if count >= size then redis.call('ZREM', G.room, group) end
  return group, tostring(tier)
end

-- Takes the player out of their group (a withdrawal, an erasure): the group has room again.
local function leaveGroup(G, player, group)
  local value = redis.call('HGET', G.groups, group)
  if not value then return end
  local tier = string.match(value, '^(%d+):')
  local kept = {}
  for member in string.gmatch(redis.call('HGET', G.groups, 'm' .. group) or '', '%S+') do
    if member ~= player then table.insert(kept, member) end
  end
  redis.call('HSET', G.groups, group, tier .. ':' .. #kept)
  redis.call('HSET', G.groups, 'm' .. group, table.concat(kept, ' '))
  redis.call('ZADD', G.room, tonumber(tier) * TIER_SPAN + tonumber(group), group)
end
