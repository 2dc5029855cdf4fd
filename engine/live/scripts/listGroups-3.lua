--[[
  A page of the current season's league groups, oldest first, of one tier or all
  (docs/competitions.md, part 6).

  KEYS: 1 season, 2 groups, 3 groupIndex
  ARGV: 1 the tier ('' for every tier), 2 offset, 3 limit
  Reply: { total, { group, tier, members, ... } }; or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "seats"

liveSeason(KEYS[1])
local low, high = '-inf', '+inf'
if ARGV[1] ~= '' then
  low = tonumber(ARGV[1]) * TIER_SPAN
  high = low + TIER_SPAN - 1
end
local total = redis.call('ZCOUNT', KEYS[3], low, high)
local page = {}
for _, group in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], low, high, 'LIMIT', tonumber(ARGV[2]), tonumber(ARGV[3]))) do
  local tier, count = string.match(redis.call('HGET', KEYS[2], group), '^(%d+):(%d+)$')
  for _, field in ipairs({ group, tonumber(tier), tonumber(count) }) do table.insert(page, field) end
end
return { total, page }
