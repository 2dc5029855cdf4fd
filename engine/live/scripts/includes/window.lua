-- A season's window (docs/competitions.md): whether it accepts a report that arrived at `arrivedAt`
-- (ms, the API's clock, never taken as later than Redis's own; a report that arrived before the
-- current season began, a reset falling between its arrival and this step, is judged as at the
-- season's start, as it counts in this season). A one-off window: `opens` and
-- `closes` are ms, or '' when open-ended, and it belongs to `windowSeason` ('' for none), applying
-- only while that season is current, so a reset clears it. Or every season stays open `openSeconds`
-- ('' for none) from its start (the `startedKey` key). The same rule as engine/competitions/window.ts.
-- Needs includes/live-season (nowMs).
local function windowAccepts(season, windowSeason, opens, closes, openSeconds, startedKey, arrivedAt)
  -- Boards without a window (most) return before any call.
  if openSeconds == '' and (windowSeason == '' or windowSeason ~= season) then return true end
  local at = math.min(tonumber(arrivedAt), nowMs())
  if openSeconds ~= '' then
    local started = tonumber(redis.call('GET', startedKey) or '0')
    opens, closes = started, started + tonumber(openSeconds) * 1000
    at = math.max(at, started)
  end
  if opens ~= '' and at < tonumber(opens) then return false end
  if closes ~= '' and at >= tonumber(closes) then return false end
  return true
end
