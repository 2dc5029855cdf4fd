--[[
  Reads what a board's seasons list needs of Redis in one step: the current season, when it
  started, its ranked players, and the ended seasons still waiting for their archive.

  KEYS: 1 season, 2 seasonStarted, 3 scores, 4 endedSeasons
  ARGV: 1 when PostgreSQL says the current season started (ms; taken when Redis has no time)
  Reply: { season, started at (ms), ranked players, ended season, '<started ms>:<ended ms>', ... }, or
         the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "live-season"

local season = liveSeason(KEYS[1])
local reply = { tonumber(season), tonumber(redis.call('GET', KEYS[2]) or ARGV[1]), redis.call('ZCARD', KEYS[3]) }
local ended = redis.call('HGETALL', KEYS[4])
for i = 1, #ended do table.insert(reply, ended[i]) end
return reply
