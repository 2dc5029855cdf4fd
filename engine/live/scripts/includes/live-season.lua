-- A board's season key holds '<season>' or '<season>:<ms of its next scheduled reset>'. The board's
-- preparation (creation, rebuild) writes it last, after the rest of the board's state, so a board
-- without it lost its data. Every script that reads or changes a board's live state starts with
-- liveSeason(), which stops the script before it touches anything:
-- LBMISSING when the board must be rebuilt from PostgreSQL first (the caller does it, then asks
-- again), LBDUE <season> when the current season has reached its scheduled reset and nothing may
-- read or join it before it ends (the caller ends it, then asks again). So a season ends at its
-- scheduled instant, whenever the worker gets to the board, and no answer comes from a board that
-- lost its state.

-- The season number (a string) and the scheduled reset (ms, or nil) a season key's value holds.
local function parseSeason(value)
  local season, due = string.match(value, '^(%d+):?(%d*)$')
  return season, tonumber(due)
end

-- Redis server time in ms.
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The current season (a string), or the script stops with LBMISSING or LBDUE.
local function liveSeason(seasonKey)
  local value = redis.call('GET', seasonKey)
  if not value then
    error(redis.error_reply('LBMISSING the leaderboard has no live state: it is rebuilt from PostgreSQL'))
  end
  local season, due = parseSeason(value)
  if due and nowMs() >= due then
    error(redis.error_reply('LBDUE ' .. season .. ' the season reached its scheduled reset'))
  end
  return season
end
