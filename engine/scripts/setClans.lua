--[[
  Sets players' clan memberships on one clan leaderboard, moving each player's best score from the
  old clan's total to the new one's in the same atomic step.

  KEYS: 1-7 the clan keys (clanKeys() in includes/clan-totals), then each player's member key, in
        the order of the players in ARGV
  ARGV: player id, clan id ('' for none) pairs
  Reply: number of players whose clan changed
]]
-- @include "clock"
-- @include "clan-totals"

local K = clanKeys()
local clock = serverClock()
local moved = 0
for i = 1, #ARGV, 2 do
  if moveToClan(K, KEYS[7 + (i + 1) / 2], ARGV[i], ARGV[i + 1], clock) then moved = moved + 1 end
end
return moved
