--[[
  Reads a page of a ranking (players or clans) with the competition rank of its first entry.

  KEYS: 1 ranking zset
  ARGV: 1 'desc'|'asc', 2 start position, 3 stop position (0-based, inclusive)
  Reply: { total, first rank (0 when the page is empty), member, score, member, score, ... }
]]
-- @include "ranks"

local page = readRange(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
table.insert(page, 1, redis.call('ZCARD', KEYS[1]))
return page
