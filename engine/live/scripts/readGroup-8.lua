--[[
  One league group of the current season, its members ranked within it by the board's order
  (docs/competitions.md, part 6): a group is at most 1,000 players, so its members are read and
  ordered here, in one step, from the board's own entries. Banned members are left out.

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

-- Player ids in byte order (Lua's own string order follows the server's locale).
local function idBefore(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local rows, unscored = {}, {}
for member in string.gmatch(redis.call('HGET', KEYS[5], 'm' .. group) or '', '%S+') do
  if redis.call('SISMEMBER', KEYS[8], member) == 0 then
    local entry = entryOf(E, member)
    if entry then table.insert(rows, { player = member, entry = entry }) else table.insert(unscored, member) end
  end
end
-- The board's order: score, tiebreakers, then (earliest) the time reached, then the player id.
table.sort(rows, function(a, b)
  local c = compareEntries(E, a.entry, b.entry)
  if c ~= 0 then return c < 0 end
  if E.earliest and a.entry.at ~= b.entry.at then return a.entry.at < b.entry.at end
  return idBefore(a.player, b.player)
end)

local ranked = {}
local rank = 0
for i, row in ipairs(rows) do
  -- Earliest boards rank by position; others share a rank among equal entries.
  if E.earliest or i == 1 or compareEntries(E, rows[i - 1].entry, row.entry) ~= 0 then rank = i end
  local score, tiebreakers, at = entryFields(row.entry)
  for _, field in ipairs({ row.player, score, tiebreakers, at, redis.call('HGET', KEYS[7], row.player) or '', rank }) do
    table.insert(ranked, field)
  end
end
return { group, tonumber(tier), tonumber(count), ranked, unscored }
