--[[
  Enters a player in the board's current season, or withdraws them, in one atomic step with the
  seat count (docs/competitions.md, part 3): an entry takes a seat, so no more than `max_players`
  ever hold one, and on a league a place in a group; a withdrawal gives both back, but only before
  the player's first report.

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 season, 11 banned, 12 seasonStarted, 13 hidden,
        14 seats, 15 waiting, 16 dirty, 17 queued, 18 groups, 19 groupIndex, 20 groupRoom, 21 tiers,
        22 reservations, 23 reserved (includes/seats), 24 shadowed (docs/review.md part 6)
  ARGV: 1 player id, 2 'enter'|'withdraw', 3 when the request arrived (ms), 4 opens (ms or ''),
        5 closes (ms or ''), 6 the window's season ('' for none), 7 the seconds each season stays
        open ('' for none) (includes/window), 8 '1' when players must enter, 9 the most players,
        10 the most attempts, 11 a league's group size ('' for none) (includes/seats), 12 queued-flag
        lifetime (ms)
  Reply: { 0, seats taken, season, entered after (0|1), needs a persistence job (0|1) } when done
         (entering twice, or withdrawing a player not entered, changes nothing); or { reason }:
         4 the player is banned (a shadow-banned player enters as anyone does: they are not told), 6 the season has closed (entering), 8 the board is full,
         10 the season has closed or the player has reported (withdrawing), 11 the board takes no
         entries (it has no entry rules); or the error LBMISSING or LBDUE (includes/live-season)
         or LBMOVES (includes/seats)
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "live-season"
-- @include "window"
-- @include "seats"

local K = boardKeys()
local player, action = ARGV[1], ARGV[2]
local season = liveSeason(KEYS[10])
if redis.call('SISMEMBER', KEYS[11], player) == 1 and redis.call('SISMEMBER', KEYS[24], player) == 0 then return { 4 } end
local rules = seatRules(ARGV[8], ARGV[9], ARGV[10], ARGV[11])
if not rules then return { 11 } end
local closed = windowStateAt(season, ARGV[6], ARGV[4], ARGV[5], ARGV[7], KEYS[12], ARGV[3]) == 'closed'
local E = liveEntries(K)
local G = groupKeys(KEYS[18], KEYS[19], KEYS[20], KEYS[21])
local S = seatKeys(KEYS[13], KEYS[14], KEYS[15], KEYS[22], KEYS[23])
local seat = seatRecord(S, player)
local clock = serverClock()
local changed = false

if action == 'enter' then
  -- An upcoming season takes entries; a closed one is final.
  if closed then return { 6 } end
  if rules.groupSize and seat.group == '' then awaitMoves(G) end
  if not holdsEntry(E, S, player) and redis.call('SISMEMBER', S.waiting, player) == 0 then
    -- A seat a batch reserved for the player becomes theirs for good; else a free one is needed.
    if not holdsSeat(E, S, player) and rules.maxPlayers and seatsTaken(E, S) >= rules.maxPlayers then return { 8 } end
    redis.call('SADD', S.waiting, player)
    redis.call('ZREM', S.reserved, player)
    changed = true
  end
  if not seat.entered then
    seat.entered = true
    changed = true
  end
  if rules.groupSize and seat.group == '' then
    seat.group, seat.tier = joinGroup(G, player, rules.groupSize)
    changed = true
  end
else
  if closed or seat.used > 0 or holdsEntry(E, S, player) then return { 10 } end
  changed = redis.call('SREM', S.waiting, player) == 1 or seat.entered or seat.group ~= ''
  if seat.group ~= '' then leaveGroup(G, player, seat.group) end
  seat.entered, seat.group, seat.tier = false, '', ''
end

local needsJob = 0
if changed then
  writeSeat(S, player, seat, nextVersion(K, clock))
  redis.call('ZADD', KEYS[16], 'NX', clock.ms, player)
  if redis.call('SET', KEYS[17], '1', 'NX', 'PX', ARGV[12]) then needsJob = 1 end
end
return { 0, seatsTaken(E, S), tonumber(season), seat.entered and 1 or 0, needsJob }
