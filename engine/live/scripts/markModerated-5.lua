--[[
  Marks an ended season that Redis still holds (the worker has not archived it yet) as moderated
  since its end when a ban, unban or erasure changes what its reads show: a ban or an erasure of a
  player ranked in it (its ranking still counts them), an unban of a player hidden in it (banned
  when it ended; the archive shows them again). Reads of its players then answer 503 until the
  archive, which applies moderation as PostgreSQL then has it (docs/architecture.md, Seasons).

  KEYS: 1 endedSeasons, 2 endedScores, 3 endedSortKeys, 4 endedHidden, 5 layout
  ARGV: 1 season, 2 player id, 3 'ban'|'unban'|'erase'
  Reply: 1 when the season is marked (now or before), 0 when it is archived or the moderation
         changes nothing in it
]]
-- @include "clock"
-- @include "entries"
-- @include "ended-season"

local season, player, action = ARGV[1], ARGV[2], ARGV[3]
local times = redis.call('HGET', KEYS[1], season)
if not times then return 0 end
if action == 'unban' then
  if redis.call('HEXISTS', KEYS[4], player) == 0 then return 0 end
elseif not entryOf(entriesOf(KEYS[2], KEYS[3], storedLayout(KEYS[5]), 'desc'), player) then
  return 0
end
if not isModerated(times) then redis.call('HSET', KEYS[1], season, times .. MODERATED) end
return 1
