--[[
  Sets players' clan memberships on one clan leaderboard, moving each player's best score from the
  old clan's total to the new one's in the same atomic step.

  KEYS: 1 scores, 2 clans, 3 clanCounts, 4 dirtyClans, 5 clanVersions, 6 clanIds, 7 clanNumbers,
        then each player's member key, in the order of the players in ARGV
  ARGV: player id, clan id ('' for none) pairs
  Reply: number of players whose clan changed
]]
-- @include "clock"
-- @include "clan-totals"

local K = { scores = KEYS[1], clans = KEYS[2], clanCounts = KEYS[3], dirtyClans = KEYS[4],
            clanVersions = KEYS[5], clanIds = KEYS[6], clanNumbers = KEYS[7] }
local clock = serverClock()
local moved = 0
for i = 1, #ARGV, 2 do
  if moveToClan(K, KEYS[7 + (i + 1) / 2], ARGV[i], ARGV[i + 1], clock) then moved = moved + 1 end
end
return moved
