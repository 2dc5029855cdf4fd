--[[
  Reads the best score and competition rank of each given member of a ranking.

  KEYS: 1 ranking zset (players or clans)
  ARGV: 1 'desc'|'asc', then member ids
  Reply: { total, score ('' when none), rank (0 when none), score, rank, ... }
]]
-- @include "ranks"

local reply = { redis.call('ZCARD', KEYS[1]) }
for i = 2, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score then
    table.insert(reply, score)
    table.insert(reply, rankOf(KEYS[1], score, ARGV[1]))
  else
    table.insert(reply, '')
    table.insert(reply, 0)
  end
end
return reply
