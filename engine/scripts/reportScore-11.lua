--[[
  Records one reported score atomically and answers with the rank it gives.

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), 8 dirty, 9 queued, 10 the player's
        member key, 11 season
  ARGV: 1 player id, 2 score, 3 'desc'|'asc', 4 queued-flag lifetime (ms), 5 the leaderboard's season
        as PostgreSQL knows it (taken when Redis holds none: a new or rebuilt board)
  Reply: { best score (string), improved (0|1), rank, total, needs a persistence job (0|1), season }
]]
-- @include "clock"
-- @include "clan-totals"
-- @include "ranks"

local K = clanKeys()
local dirty, queued, memberKey, seasonKey = KEYS[8], KEYS[9], KEYS[10], KEYS[11]
local player, order = ARGV[1], ARGV[3]
local clock = serverClock()

-- The season is read in the same step as the score is applied, so a reset (which moves the live
-- keys aside and bumps this number in one step of its own) falls wholly before or after this report.
local season = redis.call('GET', seasonKey)
if not season then
  season = ARGV[5]
  redis.call('SET', seasonKey, season)
end

local best, improved = applyScore(K, memberKey, player, ARGV[2], order, clock)
local needsJob = 0
if improved then
  -- NX keeps the time of the first change PostgreSQL has not seen, which is what lag measures.
  redis.call('ZADD', dirty, 'NX', clock.ms, player)
  if redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) then
    needsJob = 1
  end
end

return { best, improved and 1 or 0, rankOf(K.scores, best, order), redis.call('ZCARD', K.scores), needsJob, tonumber(season) }
