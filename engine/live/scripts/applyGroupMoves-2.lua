--[[
  Applies one league group's moves at its season's end, exactly once (docs/competitions.md, part 6):
  the group's result and its players' new tiers are written in one step with the mark that it moved
  (its result field), so a runner killed half way, or two racing, leave no group moved twice. Tiers
  are written as absolute values, the lowest as no field. With no group given, clears the season's
  moves-due mark once every group has moved, which lets the next season's players join groups.

  KEYS: 1 endedGroups, 2 tiers
  ARGV: 1 the ended season, 2 the group number ('' to finish the season), 3 the group's result
        ('<player>:<rank>:<tier after> ...', rank '' for unscored members), then player id, tier
        after, for each player who moves
  Reply: 1 when applied (or finished), 0 when the group had moved already (or some group has not)
]]
-- @include "clock"
-- @include "entries"
-- @include "seats"

local groups, tiers, season, group = KEYS[1], KEYS[2], ARGV[1], ARGV[2]
if group == '' then
  for g = 1, tonumber(redis.call('HGET', groups, 'n') or '0') do
    if redis.call('HEXISTS', groups, 'r' .. g) == 0 then return 0 end
  end
  if redis.call('HGET', tiers, MOVES_DUE) == season then redis.call('HDEL', tiers, MOVES_DUE) end
  return 1
end
if redis.call('HSETNX', groups, 'r' .. group, ARGV[3]) == 0 then return 0 end
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '0' then redis.call('HDEL', tiers, ARGV[i]) else redis.call('HSET', tiers, ARGV[i], ARGV[i + 1]) end
end
return 1
