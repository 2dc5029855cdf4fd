--[[
  Merges best scores read back from PostgreSQL into the live ranking (rebuild), keeping whichever
  is better and moving clan totals exactly as a report would, so reports racing the rebuild are safe.
  The merged scores are already persisted, so players are not marked for persistence.

  KEYS: 1 scores, 2 members, 3 clans, 4 clanCounts, 5 dirtyClans, 6 clanVersions
  ARGV: 1 'desc'|'asc', then player id, score pairs
  Reply: number of entries that changed
]]
-- @include "clock"
-- @include "clan-totals"

local K = { scores = KEYS[1], members = KEYS[2], clans = KEYS[3], clanCounts = KEYS[4],
            dirtyClans = KEYS[5], clanVersions = KEYS[6] }
local clock = serverClock()
local changed = 0
for i = 2, #ARGV, 2 do
  local _, improved = applyScore(K, ARGV[i], ARGV[i + 1], ARGV[1], clock)
  if improved then changed = changed + 1 end
end
return changed
