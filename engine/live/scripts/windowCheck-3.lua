--[[
  Whether a report to this board would pass its window, judged as the report script judges it: a
  server batch asks every board with a window before it writes any, so a batch with one closed pair
  is refused whole (docs/competitions.md).

  KEYS: 1 season, 2 banned, 3 seasonStarted
  ARGV: 1 player id, 2 when the request arrived (ms), 3 opens (ms or ''), 4 closes (ms or ''),
        5 the window's season ('' for none), 6 the seconds each season stays open ('' for none)
  Reply: 1 when the window refuses it, 0 when it accepts it or the player is banned (the report
         script refuses a ban first); or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "live-season"
-- @include "window"

if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
local season = liveSeason(KEYS[1])
return windowAccepts(season, ARGV[5], ARGV[3], ARGV[4], ARGV[6], KEYS[3], ARGV[2]) and 0 or 1
