--[[
  What the client's competitions list shows of a board for one player: the players holding a score
  in the current season (banned players' too: a seat is taken by a first report and kept through a
  ban) and whether this player holds one (docs/competitions.md, part 5).

  KEYS: 1 season, 2 scores, 3 sortKeys, 4 layout, 5 hidden
  ARGV: 1 player id
  Reply: { players, entered (0|1) }; or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "live-season"

liveSeason(KEYS[1])
local player = ARGV[1]
-- A plain board's ranking holds the player itself; a keyed one finds a player's member by its sort key.
local ranked
if (redis.call('GET', KEYS[4]) or '') == '' then
  ranked = redis.call('ZSCORE', KEYS[2], player) ~= false
else
  ranked = redis.call('HEXISTS', KEYS[3], player) == 1
end
local entered = ranked or redis.call('HEXISTS', KEYS[5], player) == 1
return { redis.call('ZCARD', KEYS[2]) + redis.call('HLEN', KEYS[5]), entered and 1 or 0 }
