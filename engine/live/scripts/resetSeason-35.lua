--[[
  Ends the current season in one atomic step: its rankings move aside under the ended season's
  keys (a RENAME: no per-entry work), the live rankings start empty, clan totals start over
  (memberships stay), and the season number moves on. Every report runs wholly before or after.
  The ended season waits in `endedSeasons` until the worker has written it to PostgreSQL.

  A scheduled reset ends the season at its scheduled instant, the one the season key holds,
  whenever it is carried out: the first script that finds the instant past stops with LBDUE and
  its caller asks for this reset ('due'); the worker asks for it on boards nobody touches. Instants
  the board has passed over meanwhile (no worker ran) make one reset, not one each. The next
  instant comes from the board's scheduled resets, which the worker keeps filled (scheduleResets).

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 dirty, 11 queued, 12 season, 13 seasonStarted,
        14 endedSeasons, 15 scheduledResets, 16 metadata, 17 versions,
        18 hidden (banned players' entries), 19 endedScores, 20 endedClans, 21 endedMetadata,
        22 endedHidden, 23 endedSortKeys (19-23 named for the season the caller expects to end),
        24 seats, 25 waiting, 26 groups, 27 groupIndex, 28 groupRoom (includes/seats),
        29 endedGroups (named for the season the caller expects to end), 30 tiers, 31 reservations,
        32 reserved, 33 bestRanks, 34 held (held scores: the archive step rejects the season's
        undecided ones in PostgreSQL, docs/review.md), 35 reached
  ARGV: 1 the season the caller expects to end, 2 'now' (a reset asked for; past a scheduled
        instant, it is that scheduled reset) or 'due' (only the scheduled reset, once its instant has
        come), 3 when PostgreSQL says the current season started (ms; taken when Redis has no time,
        before the board's first reset), 4 queued-flag lifetime (ms)
  Reply: { 1, new season, needs a persistence job (0|1), ended at (ms) } once reset;
         { 0, current season } when the current season is not the expected one (nothing changed);
         { 2, current season } ('due' only) when no scheduled reset is due (nothing changed);
         or the error LBMISSING (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "live-season"
-- @include "seats"
-- @include "best-ranks"

local K = boardKeys()
local dirty, queued, seasonKey, startedKey, endedSeasons, scheduled = KEYS[10], KEYS[11], KEYS[12], KEYS[13], KEYS[14], KEYS[15]
local value = redis.call('GET', seasonKey)
if not value then
  error(redis.error_reply('LBMISSING the leaderboard has no live state: it is rebuilt from PostgreSQL'))
end
local current, due = parseSeason(value)
local clock = serverClock()
local isDue = due ~= nil and clock.ms >= due
if ARGV[2] == 'due' and not isDue then
  return { 2, tonumber(current) }
end
if current ~= ARGV[1] then
  return { 0, tonumber(current) }
end

local endedAt = isDue and due or clock.ms
local started = redis.call('GET', startedKey) or ARGV[3]
if redis.call('EXISTS', K.scores) == 1 then redis.call('RENAME', K.scores, KEYS[19]) end
if redis.call('EXISTS', K.sortKeys) == 1 then redis.call('RENAME', K.sortKeys, KEYS[23]) end
if redis.call('EXISTS', K.clans) == 1 then redis.call('RENAME', K.clans, KEYS[20]) end
if redis.call('EXISTS', KEYS[16]) == 1 then redis.call('RENAME', KEYS[16], KEYS[21]) end
-- Banned players' entries belong to the season too: archived with it as hidden rows (an unban shows them).
if redis.call('EXISTS', KEYS[18]) == 1 then redis.call('RENAME', KEYS[18], KEYS[22]) end
-- The ended season's unpersisted changes are in its archive: their marks go with it.
redis.call('DEL', dirty, K.dirtyClans, K.clanVersions, KEYS[17])
-- A league's groups move aside with the season: its moves are computed from them, group by group,
-- and until every group has moved no player joins a group of the next season (includes/seats,
-- awaitMoves), so nobody joins at a tier about to change.
if redis.call('EXISTS', KEYS[26]) == 1 then
  redis.call('RENAME', KEYS[26], KEYS[29])
  redis.call('HSET', KEYS[30], MOVES_DUE, current)
end
-- Entries, seats, attempts, batches' reservations, held scores and best ranks start over (tiers
-- stay); the archive has no use for them (UNLINK: freed in the background, so a large season's
-- seats do not hold up this step).
redis.call('UNLINK', KEYS[24], KEYS[25], KEYS[27], KEYS[28], KEYS[31], KEYS[32], KEYS[34], KEYS[35])
dropBestRanks(KEYS[33])
-- Every clan keeps its number and starts the season with no scored member (work per clan, not per entry).
local numbered = redis.call('HGETALL', K.clanIds)
for i = 1, #numbered, 2 do
  setClanCount(K, numbered[i + 1], numbered[i], 0)
end
redis.call('HSET', endedSeasons, current, started .. ':' .. string.format('%.0f', endedAt))

-- The next scheduled instant: a reset asked for keeps it; a scheduled one moves past every instant up to now.
local nextDue = due and string.format('%.0f', due)
if isDue then
  redis.call('ZREMRANGEBYSCORE', scheduled, '-inf', clock.ms)
  nextDue = redis.call('ZRANGE', scheduled, 0, 0)[1]
end
local next = tonumber(current) + 1
redis.call('SET', seasonKey, next .. (nextDue and (':' .. nextDue) or ''))
redis.call('SET', startedKey, string.format('%.0f', endedAt))
local needsJob = redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) and 1 or 0
return { 1, next, needsJob, endedAt }
