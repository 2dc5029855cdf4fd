--[[
  Reads the entries around one player: up to `range` above and below.

  KEYS: 1-6 seasonRanking (includes/season-ranking)
  ARGV: 1 'desc'|'asc', 2 player id, 3 range, 4 the season asked ('' for the current one)
  Reply: false when the player has no score, -1 when Redis does not hold the asked season, else
         { total, start position, first rank, member, score, metadata ('' for none), ... }; or the
         error LBMISSING or LBDUE
]]
-- @include "ranks"
-- @include "live-season"
-- @include "season-ranking"

local key, metadata = seasonRanking(ARGV[4])
if not key then return -1 end
local position
if ARGV[1] == 'asc' then
  position = redis.call('ZRANK', key, ARGV[2])
else
  position = redis.call('ZREVRANK', key, ARGV[2])
end
if not position then return false end
local range = tonumber(ARGV[3])
local start = math.max(0, position - range)
local page = pageWithMetadata(readRange(key, ARGV[1], start, position + range), metadata, true)
table.insert(page, 1, start)
table.insert(page, 1, redis.call('ZCARD', key))
return page
