-- The zset that holds the asked season of a ranking, and the hash of its players' metadata, for the
-- read scripts, whose first six keys are (engine/live/keys.ts, same order):
-- KEYS: 1 scores|clans|hidden (the ranking read), 2 season, 3 endedScores|endedClans (the asked
--       season's ended ranking), 4 endedSeasons, 5 metadata (live), 6 endedMetadata (the asked season's)
-- asked '' is the current season. An ended season is readable here until the worker has archived
-- it (then PostgreSQL has it); nil when Redis holds no such season. Needs includes/live-season.
local function seasonRanking(asked)
  local current = liveSeason(KEYS[2])
  if asked == '' or asked == current then return KEYS[1], KEYS[5] end
  if redis.call('HEXISTS', KEYS[4], asked) == 1 then return KEYS[3], KEYS[6] end
  return nil
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

-- A page from readRange ({first rank, member, score, ...}) with each member's metadata after its
-- score: {first rank, member, score, metadata, ...}.
local function pageWithMetadata(page, key, wanted)
  local metadata = metadataOf(key, wanted, page, 2, 2)
  local reply = { page[1] }
  for i = 2, #page, 2 do
    table.insert(reply, page[i])
    table.insert(reply, page[i + 1])
    table.insert(reply, metadata[i / 2])
  end
  return reply
end
