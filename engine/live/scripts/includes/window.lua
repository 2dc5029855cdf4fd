-- A season's window (docs/competitions.md): 'upcoming', 'open' or 'closed' for a request that
-- arrived at `arrivedAt` (ms, the API's clock, never taken as later than Redis's own; a request that
-- arrived before the current season began, a reset falling between its arrival and this step, is
-- judged as at the season's start, as it counts in this season). A one-off window: `opens` and
-- `closes` are ms, or '' when open-ended, and it belongs to `windowSeason` ('' for none), applying
-- only while that season is current, so a reset clears it. Or every season stays open `openSeconds`
-- ('' for none) from its start (the `startedKey` key). The same rule as engine/competitions/window.ts.
-- Needs includes/live-season (nowMs).
local function windowStateAt(season, windowSeason, opens, closes, openSeconds, startedKey, arrivedAt)
  -- Boards without a window (most) return before any call.
  if openSeconds == '' and (windowSeason == '' or windowSeason ~= season) then return 'open' end
  local at = math.min(tonumber(arrivedAt), nowMs())
  if openSeconds ~= '' then
    local started = tonumber(redis.call('GET', startedKey) or '0')
    opens, closes = started, started + tonumber(openSeconds) * 1000
    at = math.max(at, started)
  end
  if opens ~= '' and at < tonumber(opens) then return 'upcoming' end
  if closes ~= '' and at >= tonumber(closes) then return 'closed' end
  return 'open'
end

-- Whether the window accepts a report that arrived at `arrivedAt` (as windowStateAt).
local function windowAccepts(season, windowSeason, opens, closes, openSeconds, startedKey, arrivedAt)
  return windowStateAt(season, windowSeason, opens, closes, openSeconds, startedKey, arrivedAt) == 'open'
end
