--[[
  Bans, unbans or removes one player's entry on one board in one atomic step, moving the clan total
  as a report would, so every read sees the board either before or after it (the others' ranks and
  the total close up in the same step).

  A ban keeps the player in `banned` (the report script refuses them from then on) and moves their
  entry out of the ranking into `hidden`, where it waits, persisted as ever, for the unban to put it
  back, time and tiebreakers included, with its clan contribution. A removal drops the entry,
  wherever it is, and marks the player for persistence with a new version: PostgreSQL deletes its
  row up to that version, and any later score of the player is written with it, so a job that
  claimed the old score cannot bring it back. An erasure is a removal that also forgets the
  player's seat, entry, attempts and group place of the season (includes/seats); a plain removal
  keeps the attempts used (a removed cheater gains none) and the group place, and frees the seat
  with the entry (the player is no longer entered: a new seat takes a new entry or report). A
  rejection drops a held score (docs/review.md part 4), if it is still the hold reviewed, and the
  seat it took: a player left with no entry is no longer entered, as after a removal; so does the
  end of a shadow ban, for the holds it made.

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 member (the player's member key), 11 banned,
        12 hidden, 13 metadata, 14 versions, 15 dirty, 16 queued, 17 season, 18 seats, 19 waiting,
        20 groups, 21 groupRoom, 22 bestRanks (a removal or an erasure drops the player's; a ban keeps it),
        23 held (an erasure drops the player's held score, docs/review.md), 24 shadowed (the
        shadow-banned players, docs/review.md part 6), 25 reservations, 26 reserved (a freed seat
        a batch holds attempts for stays reserved for it: includes/seats), 27 endedSeasons
  ARGV: 1 player id, 2 'ban'|'unban'|'remove'|'erase'|'reject', 3 queued-flag lifetime (ms), 4 'preparing' when the
        board's preparation bans (its live state is not whole yet), else '', 5 'shadow' when a ban
        is a shadow ban (a ban of the other kind changes its kind), else '', 6 the rejected hold's
        held_us ('' unless 'reject')
  Reply: { done (0|1|2), needs a persistence job (0|1), ended seasons }: a ban or unban is done when
         it changed the player's state on this board; a removal when there was a score to remove, an
         erasure when there was a score or a seat; a rejection when the hold was there, and done is 2
         when an approval applied it already (its decision still to be recorded); the board's ended
         seasons not yet archived, after a ban, unban or erasure (the caller marks those it changes:
         markModerated-5.lua); or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "live-season"
-- @include "seats"
-- @include "best-ranks"
-- @include "review"

local K = boardKeys()
local memberKey, banned, hidden, metadata, versions, dirty, queued = KEYS[10], KEYS[11], KEYS[12], KEYS[13], KEYS[14], KEYS[15], KEYS[16]
local player, action = ARGV[1], ARGV[2]
if ARGV[4] ~= 'preparing' then liveSeason(KEYS[17]) end
local clock = serverClock()
local E = liveEntries(K)

-- Moves the player's clan total by an entry entering (1) or leaving (-1) the ranking.
local function moveClanTotal(entry, direction)
  local clan = clanOf(K, memberKey, player)
  if clan then adjustClan(K, clan, direction * entry.score, direction, clock) end
end

-- The seat goes with the player's last entry: they enter again (where entry is required) for a
-- new one. A new version, so the seat's row in PostgreSQL follows.
local function leaveSeat(S, seat)
  seat.entered = false
  writeSeat(S, player, seat, nextVersion(K, clock))
  keepSeatForBatch(S, player)
end

-- A dropped hold gives back the seat its report took (docs/review.md part 4) when the player is
-- left with no entry: no longer entered nor waiting, as after a removal; the attempts used and the
-- group place stay. Seats exist only on boards with seat rules, so other boards read one field.
local function freeHeldSeat()
  local S = seatKeys(hidden, KEYS[18], KEYS[19], KEYS[25], KEYS[26])
  if holdsEntry(E, S, player) then return end
  local seat = seatRecord(S, player)
  if not seat.entered then return end
  redis.call('SREM', S.waiting, player)
  leaveSeat(S, seat)
  redis.call('ZADD', dirty, 'NX', clock.ms, player)
end

-- A shadow ban's held score goes when it ends (its reports were made while banned), as a rejection
-- would drop it; a hold the review rules made stays for its decision. Whether one went.
local function dropShadowHold()
  local h = parseHeld(redis.call('HGET', KEYS[23], player))
  if not h or h.reason ~= 'shadow' then return false end
  redis.call('HDEL', KEYS[23], player)
  return true
end

local done = false
if action == 'ban' then
  done = redis.call('SADD', banned, player) == 1
  local entry = done and entryOf(E, player)
  if entry then
    removeEntry(E, player, entry)
    moveClanTotal(entry, -1)
    redis.call('HSET', hidden, player, storedFormOf(E, entry))
  end
  if ARGV[5] == 'shadow' then
    done = redis.call('SADD', KEYS[24], player) == 1 or done
  elseif redis.call('SREM', KEYS[24], player) == 1 then
    if dropShadowHold() then freeHeldSeat() end
    done = true
  end
elseif action == 'unban' then
  done = redis.call('SREM', banned, player) == 1
  local dropped = redis.call('SREM', KEYS[24], player) == 1 and dropShadowHold()
  local stored = done and redis.call('HGET', hidden, player)
  if stored then
    local entry = fromStoredForm(E, stored)
    redis.call('HDEL', hidden, player)
    putEntry(E, player, entry)
    moveClanTotal(entry, 1)
  end
  if dropped then freeHeldSeat() end
elseif action == 'reject' then
  local h = parseHeld(redis.call('HGET', KEYS[23], player))
  done = h ~= nil and h.us == ARGV[6]
  if done then
    redis.call('HDEL', KEYS[23], player)
    freeHeldSeat()
  elseif redis.call('HGET', KEYS[23], APPROVED .. player) == ARGV[6] then
    -- An approval applied it and failed to record its decision: only an approval may record it.
    return { 2, 0 }
  end
else
  local entry = entryOf(E, player)
  if entry then
    removeEntry(E, player, entry)
    moveClanTotal(entry, -1)
    done = true
  else
    done = redis.call('HDEL', hidden, player) == 1
  end
  local S = seatKeys(hidden, KEYS[18], KEYS[19], KEYS[25], KEYS[26])
  local seat = seatRecord(S, player)
  if action == 'erase' then
    local group = seat.group
    if group ~= '' then leaveGroup(groupKeys(KEYS[20], '', KEYS[21], ''), player, group) end
    local seated = redis.call('HDEL', KEYS[18], player) == 1
    redis.call('SREM', KEYS[19], player)
    local held = redis.call('HDEL', KEYS[23], player) == 1
    redis.call('HDEL', KEYS[23], APPROVED .. player)
    -- A batch's reservation for the player goes too (all its reports): a later report of theirs is
    -- judged as any report.
    release(S, player, math.huge)
    done = done or seated or held
  elseif done and seat.entered then
    leaveSeat(S, seat)
  end
  if done then
    redis.call('HDEL', metadata, player)
    dropBestRank(KEYS[22], player)
    redis.call('HSET', versions, player, nextVersion(K, clock))
    redis.call('ZADD', dirty, 'NX', clock.ms, player)
  end
end

local needsJob = 0
if done and redis.call('ZCARD', dirty) + redis.call('ZCARD', K.dirtyClans) > 0 and redis.call('SET', queued, '1', 'NX', 'PX', ARGV[3]) then
  needsJob = 1
end
local ended = {}
-- Whether or not this step changed anything: a ban sent again after a failure finds it done here.
if action == 'erase' or action == 'ban' or action == 'unban' then ended = redis.call('HKEYS', KEYS[27]) end
return { done and 1 or 0, needsJob, ended }
