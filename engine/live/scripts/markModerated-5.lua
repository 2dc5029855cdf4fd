--[[
  Marks an ended season that Redis still holds (the worker has not archived it yet) as moderated
  since its end, when the player has an entry in it, ranked or hidden: its ranking in Redis still
  counts the player as the season ended, so reads of its players answer 503 until the archive,
  which applies moderation as PostgreSQL then has it (docs/architecture.md, Seasons).

  KEYS: 1 endedSeasons, 2 endedScores, 3 endedSortKeys, 4 endedHidden, 5 layout
  ARGV: 1 season, 2 player id
  Reply: 1 when the season is marked (now or before), 0 when it is archived or the player has no entry in it
]]
-- @include "clock"
-- @include "entries"
-- @include "ended-season"

local season, player = ARGV[1], ARGV[2]
local times = redis.call('HGET', KEYS[1], season)
if not times then return 0 end
local E = entriesOf(KEYS[2], KEYS[3], storedLayout(KEYS[5]), 'desc')
if not entryOf(E, player) and redis.call('HEXISTS', KEYS[4], player) == 0 then return 0 end
if not isModerated(times) then redis.call('HSET', KEYS[1], season, times .. MODERATED) end
return 1
