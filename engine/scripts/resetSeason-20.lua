--[[
  Ends the current season in one atomic step: its rankings move aside under the ended season's
  keys (a RENAME: no per-entry work), the live rankings start empty, clan totals start over
  (memberships stay), and the season number moves on. Every report runs wholly before or after.
  The ended season waits in `archives` until the worker has written it to PostgreSQL.

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), 8 dirty, 9 queued, 10 season,
        11 seasonStarted, 12 archives, 13 lastScheduledReset, 14 the ended season's scores,
        15 the ended season's clans, 16 metadata, 17 versions, 18 the ended season's metadata,
        19 hidden (banned players' scores), 20 the ended season's hidden
        (14, 15, 18 and 20 named for the season the caller expects to end)
  ARGV: 1 the season the caller expects to end, 2 the current season as PostgreSQL knows it (when
        Redis has none), 3 when PostgreSQL says it started (ms), 4 queued-flag lifetime (ms),
        5 the scheduled time (ms) of a scheduled reset, '' for one asked now
  Reply: { 1, new season, needs a persistence job (0|1), ended at (ms) } once reset;
         { 0, current season } when the current season is not the expected one (nothing changed);
         { 2, current season } when this scheduled reset has already been carried out
]]
-- @include "clock"
-- @include "clan-totals"

local K = clanKeys()
local dirty, queued, seasonKey, startedKey, archives, lastScheduled = KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12], KEYS[13]
local current = redis.call('GET', seasonKey) or ARGV[2]
local scheduledFor = ARGV[5]
if scheduledFor ~= '' and tonumber(redis.call('GET', lastScheduled) or '0') >= tonumber(scheduledFor) then
  return { 2, tonumber(current) }
end
if current ~= ARGV[1] then
  return { 0, tonumber(current) }
end

local clock = serverClock()
local started = redis.call('GET', startedKey) or ARGV[3]
if redis.call('EXISTS', K.scores) == 1 then redis.call('RENAME', K.scores, KEYS[14]) end
if redis.call('EXISTS', K.clans) == 1 then redis.call('RENAME', K.clans, KEYS[15]) end
if redis.call('EXISTS', KEYS[16]) == 1 then redis.call('RENAME', KEYS[16], KEYS[18]) end
-- Banned players' scores belong to the season too: archived with it as hidden rows (an unban shows them).
if redis.call('EXISTS', KEYS[19]) == 1 then redis.call('RENAME', KEYS[19], KEYS[20]) end
-- The ended season's unpersisted changes are in its archive: their marks go with it.
redis.call('DEL', dirty, K.dirtyClans, K.clanVersions, KEYS[17])
-- Every clan keeps its number and starts the season with no scored member (work per clan, not per entry).
local numbered = redis.call('HGETALL', K.clanIds)
for i = 1, #numbered, 2 do
  setClanCount(K, numbered[i + 1], numbered[i], 0)
end
redis.call('HSET', archives, current, started .. ':' .. clock.ms)
local next = tonumber(current) + 1
redis.call('SET', seasonKey, next)
redis.call('SET', startedKey, clock.ms)
if scheduledFor ~= '' then redis.call('SET', lastScheduled, scheduledFor) end
local needsJob = redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) and 1 or 0
return { 1, next, needsJob, clock.ms }
