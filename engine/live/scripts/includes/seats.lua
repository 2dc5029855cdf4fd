-- Entries, seats and attempts (docs/competitions.md, part 3), kept only on boards with
-- `join_required`, `max_players` or `max_attempts`. Needs includes/entries.
--
-- `seats` (hash) player -> '<attempts used>:<entered 0|1>:<version>' for every player who entered
-- or reported this season; the version (the board's version clock) changes with every change, so
-- persistence compares the whole value. `waiting` (set) holds the entered players who hold no entry.
-- A player holds a seat while they hold an entry (ranked, or hidden by a ban) or wait in `waiting`,
-- so the seats taken are counted, never kept in a counter: a removal or an erasure frees a seat by
-- removing the entry, a ban keeps it, and a board that gains a limit counts its players at once.

-- The keys the seat rules read, beside the board's entries: { hidden, seats, waiting }.
local function seatKeys(hidden, seats, waiting)
  return { hidden = hidden, seats = seats, waiting = waiting }
end

-- A player's seat record: { used = attempts used, entered = boolean }.
local function seatRecord(S, player)
  local value = redis.call('HGET', S.seats, player)
  if not value then return { used = 0, entered = false } end
  local used, entered = string.match(value, '^(%d+):(%d)')
  return { used = tonumber(used), entered = entered == '1' }
end

local function writeSeat(S, player, record, version)
  redis.call('HSET', S.seats, player, record.used .. ':' .. (record.entered and '1' or '0') .. ':' .. version)
end

-- The seats taken this season.
local function seatsTaken(E, S)
  return redis.call('ZCARD', E.ranking) + redis.call('HLEN', S.hidden) + redis.call('SCARD', S.waiting)
end

local function holdsEntry(E, S, player)
  return entryOf(E, player) ~= nil or redis.call('HEXISTS', S.hidden, player) == 1
end

local function holdsSeat(E, S, player)
  return holdsEntry(E, S, player) or redis.call('SISMEMBER', S.waiting, player) == 1
end

-- The board's rules as the caller passes them: { join = boolean, maxPlayers, maxAttempts (numbers
-- or nil) }, or nil for a board without any.
local function seatRules(join, maxPlayers, maxAttempts)
  if join == '' and maxPlayers == '' and maxAttempts == '' then return nil end
  return { join = join == '1', maxPlayers = tonumber(maxPlayers), maxAttempts = tonumber(maxAttempts) }
end

-- Why the rules refuse a report of `player` (in the API's order: entry, seat, attempts): 7 not
-- entered, 8 the board is full, 9 no attempt left; nil when they accept it.
local function seatRefusal(E, S, rules, player, record)
  if rules.join and not record.entered then return 7 end
  if rules.maxPlayers and not holdsSeat(E, S, player) and seatsTaken(E, S) >= rules.maxPlayers then return 8 end
  if rules.maxAttempts and record.used >= rules.maxAttempts then return 9 end
  return nil
end

-- The attempts left after `record` (nil without a limit).
local function attemptsLeft(rules, record)
  return rules.maxAttempts and math.max(rules.maxAttempts - record.used, 0) or nil
end
