--[[
  One league group of the current season, its members ranked within it by the board's order
  (docs/competitions.md, part 6): a group is at most 1,000 players, so its members are read and
  ordered here, in one step, from the board's own entries (includes/group-standings). Banned
  members are left out.

  KEYS: 1 season, 2 scores, 3 sortKeys, 4 layout, 5 groups, 6 seats, 7 metadata, 8 banned
  ARGV: 1 'desc'|'asc' (plain boards), 2 'player' (the player's group) or 'group', 3 the player id
        or the group number
  Reply: {} when there is no such group (or the player is in none); else { group, tier, members
         (banned ones included), { player, score, tiebreakers, achieved at, metadata, rank, ... }
         best first, { unscored members } }; or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "seats"
-- @include "group-standings"

liveSeason(KEYS[1])
local E = entriesOf(KEYS[2], KEYS[3], storedLayout(KEYS[4]), ARGV[1])
local group = ARGV[3]
if ARGV[2] == 'player' then
  group = seatRecord(seatKeys('', KEYS[6], ''), ARGV[3]).group
  if group == '' then return {} end
end
local value = redis.call('HGET', KEYS[5], group)
if not value then return {} end
local tier, count = string.match(value, '^(%d+):(%d+)$')

local rows, unscored = groupStandings(E, KEYS[5], group, function(member) return redis.call('SISMEMBER', KEYS[8], member) == 0 end)
local ranked = {}
for _, row in ipairs(rows) do
  local score, tiebreakers, at = entryFields(row.entry)
  for _, field in ipairs({ row.player, score, tiebreakers, at, redis.call('HGET', KEYS[7], row.player) or '', row.rank }) do
    table.insert(ranked, field)
  end
end
return { group, tonumber(tier), tonumber(count), ranked, unscored }
