--[[
  Reads the best score and competition rank of each given member of a ranking.

  KEYS: 1-4 as in includes/season-ranking (live ranking, season, ended ranking, archives)
  ARGV: 1 'desc'|'asc', 2 the season asked ('' for the current one), 3 the current season as
        PostgreSQL knows it, then member ids
  Reply: { total, score ('' when none), rank (0 when none), score, rank, ... }, or -1 when Redis
         does not hold the asked season
]]
-- @include "ranks"
-- @include "season-ranking"

local key = seasonRanking(ARGV[2], ARGV[3])
if not key then return -1 end
local reply = { redis.call('ZCARD', key) }
for i = 4, #ARGV do
  local score = redis.call('ZSCORE', key, ARGV[i])
  if score then
    table.insert(reply, score)
    table.insert(reply, rankOf(key, score, ARGV[1]))
  else
    table.insert(reply, '')
    table.insert(reply, 0)
  end
end
return reply
