--[[
  Reads the score, competition rank and metadata of each given member of a ranking.

  KEYS: 1-6 as in includes/season-ranking (live ranking, season, ended ranking, archives, live
        metadata, ended metadata)
  ARGV: 1 'desc'|'asc', 2 the season asked ('' for the current one), 3 the current season as
        PostgreSQL knows it, 4 'players'|'clans', then member ids
  Reply: { total, score ('' when none), rank (0 when none), metadata ('' for none), ... }, or -1
         when Redis does not hold the asked season
]]
-- @include "ranks"
-- @include "season-ranking"

local key, metadataKey = seasonRanking(ARGV[2], ARGV[3])
if not key then return -1 end
local metadata = metadataOf(metadataKey, ARGV[4] == 'players', ARGV, 5, 1)
local reply = { redis.call('ZCARD', key) }
for i = 5, #ARGV do
  local score = redis.call('ZSCORE', key, ARGV[i])
  if score then
    table.insert(reply, score)
    table.insert(reply, rankOf(key, score, ARGV[1]))
    table.insert(reply, metadata[i - 4])
  else
    table.insert(reply, '')
    table.insert(reply, 0)
    table.insert(reply, '')
  end
end
return reply
