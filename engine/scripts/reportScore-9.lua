--[[
  Records one reported score atomically and answers with the rank it gives.

  KEYS: 1 scores, 2 dirty, 3 queued, 4 the player's member key, 5 clans, 6 clanCounts, 7 dirtyClans,
        8 clanVersions, 9 clanIds
  ARGV: 1 player id, 2 score, 3 'desc'|'asc', 4 queued-flag lifetime (ms)
  Reply: { best score (string), improved (0|1), rank, total, needs a persistence job (0|1) }
]]
-- @include "clock"
-- @include "clan-totals"
-- @include "ranks"

local K = { scores = KEYS[1], clans = KEYS[5], clanCounts = KEYS[6], dirtyClans = KEYS[7],
            clanVersions = KEYS[8], clanIds = KEYS[9] }
local player, order = ARGV[1], ARGV[3]
local clock = serverClock()

local best, improved = applyScore(K, KEYS[4], player, ARGV[2], order, clock)
local needsJob = 0
if improved then
  -- NX keeps the time of the first change PostgreSQL has not seen, which is what lag measures.
  redis.call('ZADD', KEYS[2], 'NX', clock.ms, player)
  if redis.call('SET', KEYS[3], '1', 'NX', 'PX', ARGV[4]) then
    needsJob = 1
  end
end

return { best, improved and 1 or 0, rankOf(KEYS[1], best, order), redis.call('ZCARD', KEYS[1]), needsJob }
