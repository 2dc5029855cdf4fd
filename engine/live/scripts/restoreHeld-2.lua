--[[
  Puts persisted held scores back into a board being rebuilt (docs/review.md): a field Redis already
  holds stays (it is newer: PostgreSQL follows Redis).

  KEYS: 1 season, 2 held
  ARGV: 1 the season the held scores belong to, then player id, held record (includes/review) for
        each player
  Reply: number of held scores set, or -1 when the season has moved on
]]
-- @include "live-season"

local value = redis.call('GET', KEYS[1])
if value and parseSeason(value) ~= ARGV[1] then return -1 end
local set = 0
for i = 2, #ARGV, 2 do
  set = set + redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1])
end
return set
