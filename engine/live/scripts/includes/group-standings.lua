-- One league group's standings (docs/competitions.md, part 6), the same for a running season's reads
-- and for the moves at its end. Needs includes/entries. A group is at most 1,000 players, so its
-- members are read and ordered here, in one step, from the board's own entries.

-- Player ids in byte order (Lua's own string order follows the server's locale).
local function idBefore(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- The group's visible members (`shown(member)`) ranked by the board's order: score, tiebreakers,
-- then (earliest) the time reached, then the player id; earliest boards rank by position, others
-- share a rank among equal entries. Returns { { player, entry, rank }, ... } best first, and the
-- members without an entry.
local function groupStandings(E, groupsKey, group, shown)
  local rows, unscored = {}, {}
  for member in string.gmatch(redis.call('HGET', groupsKey, 'm' .. group) or '', '%S+') do
    if shown(member) then
      local entry = entryOf(E, member)
      if entry then table.insert(rows, { player = member, entry = entry }) else table.insert(unscored, member) end
    end
  end
  table.sort(rows, function(a, b)
    local c = compareEntries(E, a.entry, b.entry)
    if c ~= 0 then return c < 0 end
    if E.earliest and a.entry.at ~= b.entry.at then return a.entry.at < b.entry.at end
    return idBefore(a.player, b.player)
  end)
  for i, row in ipairs(rows) do
    if E.earliest or i == 1 or compareEntries(E, rows[i - 1].entry, row.entry) ~= 0 then row.rank = i else row.rank = rows[i - 1].rank end
  end
  return rows, unscored
end
