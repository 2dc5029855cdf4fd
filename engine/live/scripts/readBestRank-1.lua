--[[
  The player's best rank this season and when (docs/history.md part 4), wherever includes/best-ranks
  keeps it.

  KEYS: 1 bestRanks
  ARGV: 1 player id
  Reply: '<rank>:<ms>', or nil when the player has none
]]
-- @include "best-ranks"

return bestRankOf(KEYS[1], ARGV[1]) or false
