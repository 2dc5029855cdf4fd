--[[
  Records one reported score atomically and answers with the rank it gives.

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), 8 dirty, 9 queued, 10 the player's
        member key
  ARGV: 1 player id, 2 score, 3 'desc'|'asc', 4 queued-flag lifetime (ms)
  Reply: { best score (string), improved (0|1), rank, total, needs a persistence job (0|1) }
]]
-- @include "clock"
-- @include "clan-totals"
-- @include "ranks"

local K = clanKeys()
local dirty, queued, memberKey = KEYS[8], KEYS[9], KEYS[10]
local player, order = ARGV[1], ARGV[3]
local clock = serverClock()

local best, improved = applyScore(K, memberKey, player, ARGV[2], order, clock)
local needsJob = 0
if improved then
  -- NX keeps the time of the first change PostgreSQL has not seen, which is what lag measures.
  redis.call('ZADD', dirty, 'NX', clock.ms, player)
  if redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) then
    needsJob = 1
  end
end

return { best, improved and 1 or 0, rankOf(K.scores, best, order), redis.call('ZCARD', K.scores), needsJob }
