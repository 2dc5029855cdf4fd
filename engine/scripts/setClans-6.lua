--[[
  Sets players' clan memberships on one clan leaderboard, moving each player's best score from the
  old clan's total to the new one's in the same atomic step.

  KEYS: 1 scores, 2 members, 3 clans, 4 clanCounts, 5 dirtyClans, 6 clanVersions
  ARGV: player id, clan id ('' for none) pairs
  Reply: number of players whose clan changed
]]
-- @include "clock"
-- @include "clan-totals"

local K = { scores = KEYS[1], members = KEYS[2], clans = KEYS[3], clanCounts = KEYS[4],
            dirtyClans = KEYS[5], clanVersions = KEYS[6] }
local clock = serverClock()
local moved = 0
for i = 1, #ARGV, 2 do
  if moveToClan(K, ARGV[i], ARGV[i + 1], clock) then moved = moved + 1 end
end
return moved
