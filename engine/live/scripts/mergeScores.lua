--[[
  Merges entries read back from PostgreSQL into the live ranking (rebuild), moving clan totals
  exactly as a report would, so reports racing the rebuild are safe. On best boards the better entry
  stays; on latest and sum boards Redis's own entry stays (it is newer: PostgreSQL follows Redis), and
  a missing one is set. An entry that is set brings its metadata, and on keyed boards its tiebreakers
  and the time it was reached, so the order comes back exactly. The merged entries are already
  persisted, so players are not marked for persistence.

  The entries are the current season's: should the season have moved on since they were read,
  nothing is merged (they belong to the ended season's archive). The season number is not set here:
  on latest and sum boards it opens the board to reports, once the whole merge is done
  (BoardPreparation).

  A banned player's entry goes where the ban keeps it (hidden), by the same rule, out of the ranking
  and the clan totals: a rebuild never brings a banned player back (their marks are set first).

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 season, 11 metadata, 12 banned, 13 hidden,
        14 bestRanks (includes/best-ranks), then member (each player's member key, in the order of the players in ARGV)
  ARGV: 1 'desc'|'asc', 2 the season the entries belong to, 3 'best'|'missing', then player id,
        score, metadata ('' for none), tiebreakers (comma-separated, '' for none), achieved at (ms,
        '' for none), best rank ('<rank>:<ms>', '' for none) for each player

  A best rank comes back unless Redis holds a better one (a report since the read ranked better).
  Reply: number of entries that changed, or -1 when the season has moved on
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "apply-score"
-- @include "live-season"
-- @include "best-ranks"

local K = boardKeys()
local value = redis.call('GET', KEYS[10])
if value and parseSeason(value) ~= ARGV[2] then
  return -1
end
local clock = serverClock()
local changed = 0
local rule = ARGV[3]
local E = liveEntries(K, ARGV[1])

-- Sets a banned player's hidden entry by the rule: the better one, or only a missing one.
local function mergeHidden(player, entry)
  local stored = redis.call('HGET', KEYS[13], player)
  local better = not stored or (rule == 'best' and compareEntries(E, entry, fromStoredForm(E, stored)) < 0)
  if better then redis.call('HSET', KEYS[13], player, storedFormOf(E, entry)) end
  return better
end

for i = 4, #ARGV, 6 do
  local player, metadata = ARGV[i], ARGV[i + 2]
  local tiebreakers = {}
  for tiebreaker in string.gmatch(ARGV[i + 3], '[^,]+') do table.insert(tiebreakers, tonumber(tiebreaker)) end
  local entry = { score = tonumber(ARGV[i + 1]), text = ARGV[i + 1], tiebreakers = tiebreakers, at = tonumber(ARGV[i + 4]) }
  if E.keyed and E.earliest and not entry.at then entry.at = 0 end
  local improved
  if redis.call('SISMEMBER', KEYS[12], player) == 1 then
    improved = mergeHidden(player, entry)
  else
    local _, applied = applyScore(K, E, KEYS[15 + (i - 4) / 6], player, entry, rule, clock)
    improved = applied
  end
  local entries = redis.call('ZCARD', K.scores)
  local best, held = ARGV[i + 5], bestRankOf(KEYS[14], player, entries)
  if best ~= '' and (not held or rankOfBestRank(best) < rankOfBestRank(held)) then
    setBestRank(KEYS[14], player, best, entries)
  end
  if improved then
    changed = changed + 1
    if metadata == '' then
      redis.call('HDEL', KEYS[11], player)
    else
      redis.call('HSET', KEYS[11], player, metadata)
    end
  end
end
return changed
