--[[
  Reads the entries around one player: up to `range` above and below.

  KEYS: 1 scores
  ARGV: 1 'desc'|'asc', 2 player id, 3 range
  Reply: false when the player has no score, else { total, start position, first rank, member, score, ... }
]]
-- @include "ranks"

local position
if ARGV[1] == 'asc' then
  position = redis.call('ZRANK', KEYS[1], ARGV[2])
else
  position = redis.call('ZREVRANK', KEYS[1], ARGV[2])
end
if not position then return false end
local range = tonumber(ARGV[3])
local start = math.max(0, position - range)
local page = readRange(KEYS[1], ARGV[1], start, position + range)
table.insert(page, 1, start)
table.insert(page, 1, redis.call('ZCARD', KEYS[1]))
return page
