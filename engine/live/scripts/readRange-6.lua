--[[
  Reads a page of a ranking (players or clans) with the competition rank of its first entry.

  KEYS: 1-6 seasonRanking (includes/season-ranking)
  ARGV: 1 'desc'|'asc', 2 start position, 3 stop position (0-based, inclusive), 4 the season asked
        ('' for the current one), 5 'players'|'clans'
  Reply: { total, first rank (0 when the page is empty), member, score, metadata ('' for none), ... },
         or -1 when Redis does not hold the asked season; or the error LBMISSING or LBDUE
]]
-- @include "ranks"
-- @include "live-season"
-- @include "season-ranking"

local key, metadata = seasonRanking(ARGV[4])
if not key then return -1 end
local page = pageWithMetadata(readRange(key, ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])), metadata, ARGV[5] == 'players')
table.insert(page, 1, redis.call('ZCARD', key))
return page
