--[[
  Merges best scores read back from PostgreSQL into the live ranking (rebuild), keeping whichever
  is better and moving clan totals exactly as a report would, so reports racing the rebuild are safe.
  The merged scores are already persisted, so players are not marked for persistence.

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), then each player's member key, in
        the order of the players in ARGV
  ARGV: 1 'desc'|'asc', then player id, score pairs
  Reply: number of entries that changed
]]
-- @include "clock"
-- @include "clan-totals"

local K = clanKeys()
local clock = serverClock()
local changed = 0
for i = 2, #ARGV, 2 do
  local _, improved = applyScore(K, KEYS[7 + i / 2], ARGV[i], ARGV[i + 1], ARGV[1], clock)
  if improved then changed = changed + 1 end
end
return changed
