--[[
  Merges best scores read back from PostgreSQL into the live ranking (rebuild), keeping whichever
  is better and moving clan totals exactly as a report would, so reports racing the rebuild are safe.
  The merged scores are already persisted, so players are not marked for persistence.

  The scores are the current season's: should the season have moved on since they were read, nothing
  is merged (they belong to the ended season's archive).

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), 8 season, then each player's member
        key, in the order of the players in ARGV
  ARGV: 1 'desc'|'asc', 2 the season the scores belong to, then player id, score pairs
  Reply: number of entries that changed, or -1 when the season has moved on
]]
-- @include "clock"
-- @include "clan-totals"

local K = clanKeys()
local season = redis.call('GET', KEYS[8])
if not season then
  redis.call('SET', KEYS[8], ARGV[2])
elseif season ~= ARGV[2] then
  return -1
end
local clock = serverClock()
local changed = 0
for i = 3, #ARGV, 2 do
  local _, improved = applyScore(K, KEYS[8 + (i - 1) / 2], ARGV[i], ARGV[i + 1], ARGV[1], clock)
  if improved then changed = changed + 1 end
end
return changed
