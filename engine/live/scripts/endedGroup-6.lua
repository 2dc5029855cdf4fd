--[[
  One league group of an ended season as it stood at the end (docs/competitions.md, part 6): the
  standings its moves are computed from. Members banned now or at the season's end are left out
  (they keep their tier and move nowhere).

  KEYS: 1 endedScores, 2 endedSortKeys, 3 layout, 4 endedGroups, 5 endedHidden, 6 banned
  ARGV: 1 'desc'|'asc' (plain boards), 2 the group number
  Reply: {} when there is no such group; else { tier, moved (0|1), { player, rank, ... } best first,
         { unscored members } }
]]
-- @include "clock"
-- @include "entries"
-- @include "group-standings"

local value = redis.call('HGET', KEYS[4], ARGV[2])
if not value then return {} end
local tier = string.match(value, '^(%d+):')
local moved = redis.call('HEXISTS', KEYS[4], 'r' .. ARGV[2])
local E = entriesOf(KEYS[1], KEYS[2], storedLayout(KEYS[3]), ARGV[1])
local rows, unscored = groupStandings(E, KEYS[4], ARGV[2], function(member)
  return redis.call('SISMEMBER', KEYS[6], member) == 0 and redis.call('HEXISTS', KEYS[5], member) == 0
end)
local ranked = {}
for _, row in ipairs(rows) do
  table.insert(ranked, row.player)
  table.insert(ranked, row.rank)
end
return { tonumber(tier), moved, ranked, unscored }
