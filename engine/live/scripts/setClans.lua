--[[
  Sets players' clan memberships on one clan leaderboard, moving each player's score from the
  old clan's total to the new one's in the same atomic step.

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 season,
        then member (each player's member key, in the order of the players in ARGV)
  ARGV: 1 'preparing' when the board's preparation sets them (its live state is not whole yet), else
        '', then player id, clan id ('' for none) pairs
  Reply: number of players whose clan changed; or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "live-season"

local K = boardKeys()
if ARGV[1] ~= 'preparing' then liveSeason(KEYS[10]) end
local clock = serverClock()
local E = liveEntries(K)
local moved = 0
for i = 2, #ARGV, 2 do
  if moveToClan(K, E, KEYS[10 + i / 2], ARGV[i], ARGV[i + 1], clock) then moved = moved + 1 end
end
return moved
