--[[
  Merges scores read back from PostgreSQL into the live ranking (rebuild), moving clan totals
  exactly as a report would, so reports racing the rebuild are safe. On best boards the better score
  stays; on latest and sum boards Redis's own value stays (it is newer: PostgreSQL follows Redis), and
  a missing one is set. A score that is set brings its metadata. The merged scores are already
  persisted, so players are not marked for persistence.

  The scores are the current season's: should the season have moved on since they were read, nothing
  is merged (they belong to the ended season's archive). The season number is not set here: on latest
  and sum boards it opens the board to reports, once the whole merge is done (LiveState).

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), 8 season, 9 metadata, then each
        player's member key, in the order of the players in ARGV
  ARGV: 1 'desc'|'asc', 2 the season the scores belong to, 3 'best'|'missing', then player id,
        score, metadata ('' for none) triples
  Reply: number of entries that changed, or -1 when the season has moved on
]]
-- @include "clock"
-- @include "clan-totals"

local K = clanKeys()
local season = redis.call('GET', KEYS[8])
if season and season ~= ARGV[2] then
  return -1
end
local clock = serverClock()
local changed = 0
for i = 4, #ARGV, 3 do
  local player, metadata = ARGV[i], ARGV[i + 2]
  local _, improved = applyScore(K, KEYS[9 + (i - 1) / 3], player, ARGV[i + 1], ARGV[3], ARGV[1], clock)
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
