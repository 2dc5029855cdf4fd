--[[
  Reads the entries around one player: up to `range` above and below.

  KEYS: 1-9 seasonEntries (includes/season-ranking)
  ARGV: 1 'desc'|'asc', 2 player id, 3 range, 4 the season asked ('' for the current one)
  Reply: false when the player has no score, -1 when Redis does not hold the asked season, else
         { total, member, score, metadata ('' for none), tiebreakers, achieved at, rank, ... }; or
         the error LBMISSING, LBDUE or LBARCHIVING
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "ended-season"
-- @include "season-ranking"

local E, metadata = seasonEntries(ARGV[4], ARGV[1], 'players')
if not E then return -1 end
local position = positionOf(E, ARGV[2])
if not position then return false end
local range = tonumber(ARGV[3])
local rows = rangeOf(E, math.max(0, position - range), position + range)
return rowsReply({ redis.call('ZCARD', E.ranking) }, rows, metadata, true)
