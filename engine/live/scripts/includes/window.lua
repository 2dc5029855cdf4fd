-- A season's window (docs/competitions.md): whether it accepts a report that arrived at `arrivedAt`
-- (ms, the API's clock, never taken as later than Redis's own). `opens` and `closes` are ms, or ''
-- when open-ended; the window belongs to `windowSeason` ('' for none) and applies only while that
-- season is current, so a reset clears it. The same rule as engine/competitions/window.ts.
-- Needs includes/live-season (nowMs).
local function windowAccepts(season, windowSeason, opens, closes, arrivedAt)
  if windowSeason == '' or windowSeason ~= season then return true end
  local at = math.min(tonumber(arrivedAt), nowMs())
  if opens ~= '' and at < tonumber(opens) then return false end
  if closes ~= '' and at >= tonumber(closes) then return false end
  return true
end
