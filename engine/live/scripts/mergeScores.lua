--[[
  Merges scores read back from PostgreSQL into the live ranking (rebuild), moving clan totals
  exactly as a report would, so reports racing the rebuild are safe. On best boards the better score
  stays; on latest and sum boards Redis's own value stays (it is newer: PostgreSQL follows Redis), and
  a missing one is set. A score that is set brings its metadata. The merged scores are already
  persisted, so players are not marked for persistence.

  The scores are the current season's: should the season have moved on since they were read, nothing
  is merged (they belong to the ended season's archive). The season number is not set here: on latest
  and sum boards it opens the board to reports, once the whole merge is done (BoardPreparation).

  A banned player's score goes where the ban keeps it (hidden), by the same rule, out of the ranking
  and the clan totals: a rebuild never brings a banned player back (their marks are set first).

  KEYS: 1-7 clanKeys (includes/clan-totals), 8 season, 9 metadata, 10 banned, 11 hidden,
        then member (each player's member key, in the order of the players in ARGV)
  ARGV: 1 'desc'|'asc', 2 the season the scores belong to, 3 'best'|'missing', then player id,
        score, metadata ('' for none) triples
  Reply: number of entries that changed, or -1 when the season has moved on
]]
-- @include "clock"
-- @include "clan-totals"
-- @include "apply-score"
-- @include "live-season"

local K = clanKeys()
local value = redis.call('GET', KEYS[8])
if value and parseSeason(value) ~= ARGV[2] then
  return -1
end
local clock = serverClock()
local changed = 0
local rule, order = ARGV[3], ARGV[1]

-- Sets a banned player's hidden score by the rule: the better one, or only a missing one.
local function mergeHidden(player, score)
  local held = redis.call('HGET', KEYS[11], player)
  local better = not held or (rule == 'best' and (order == 'asc' and tonumber(score) < tonumber(held) or order ~= 'asc' and tonumber(score) > tonumber(held)))
  if better then redis.call('HSET', KEYS[11], player, score) end
  return better
end

for i = 4, #ARGV, 3 do
  local player, metadata = ARGV[i], ARGV[i + 2]
  local improved
  if redis.call('SISMEMBER', KEYS[10], player) == 1 then
    improved = mergeHidden(player, ARGV[i + 1])
  else
    local _, applied = applyScore(K, KEYS[11 + (i - 1) / 3], player, ARGV[i + 1], rule, order, clock)
    improved = applied
  end
  if improved then
    changed = changed + 1
    if metadata == '' then
      redis.call('HDEL', KEYS[9], player)
    else
      redis.call('HSET', KEYS[9], player, metadata)
    end
  end
end
return changed
