-- The entries (includes/entries) of the asked season of a ranking, and the hash of its players'
-- metadata, for the read scripts, whose first nine keys are (engine/live/keys.ts, same order):
-- KEYS: 1 scores|clans|hidden (the ranking read), 2 season, 3 endedScores|endedClans (the asked
--       season's ended ranking), 4 endedSeasons, 5 metadata (live), 6 endedMetadata (the asked
--       season's), 7 sortKeys (live), 8 endedSortKeys (the asked season's), 9 layout
-- asked '' is the current season. An ended season is readable here until the worker has archived
-- it (then PostgreSQL has it); nil when Redis holds no such season. Its players' ranking stops with
-- LBARCHIVING <season> once a moderation came after its end (includes/ended-season), unless
-- `asEnded` (the archive's own read); its clan standings stay as they ended, as the archive keeps
-- them. Clan standings are always plain.
-- Also returns the season read (a string). Needs includes/live-season and includes/ended-season.
local function seasonEntries(asked, order, standings, asEnded)
  local current = liveSeason(KEYS[2])
  local layout = standings == 'players' and storedLayout(KEYS[9]) or ''
  if asked == '' or asked == current then return entriesOf(KEYS[1], KEYS[7], layout, order), KEYS[5], current end
  local times = redis.call('HGET', KEYS[4], asked)
  if not times then return nil end
  if standings ~= 'clans' and not asEnded and isModerated(times) then
    error(redis.error_reply('LBARCHIVING ' .. asked .. ' the season is being archived after a moderation'))
  end
  return entriesOf(KEYS[3], KEYS[8], layout, order), KEYS[6], asked
end

-- The metadata ('' for none) of the members at positions first, first + step, ... of a list; none
-- at all when `wanted` is false (a clan view). A board without metadata costs one EXISTS.
local function metadataOf(key, wanted, list, first, step)
  local ids = {}
  for i = first, #list, step do table.insert(ids, list[i]) end
  if not wanted or #ids == 0 or redis.call('EXISTS', key) == 0 then
    local none = {}
    for i = 1, #ids do none[i] = '' end
    return none
  end
  -- In slices: unpack takes a bounded number of values, and a clan may list many members.
  local found = {}
  for from = 1, #ids, 1000 do
    local slice = redis.call('HMGET', key, unpack(ids, from, math.min(from + 999, #ids)))
    for i = 1, #slice do found[from + i - 1] = slice[i] or '' end
  end
  return found
end

-- Rows from rangeOf (includes/entries) as a reply after `reply`'s first items: member, score,
-- metadata, tiebreakers, achieved at, rank for each.
local function rowsReply(reply, rows, metadataKey, wanted)
  local ids = {}
  for i, row in ipairs(rows) do ids[i] = row.player end
  local metadata = metadataOf(metadataKey, wanted, ids, 1, 1)
  for i, row in ipairs(rows) do
    local score, tiebreakers, at = entryFields(row.entry)
    for _, field in ipairs({ row.player, score, metadata[i], tiebreakers, at, row.rank }) do table.insert(reply, field) end
  end
  return reply
end
