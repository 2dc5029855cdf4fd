--[[
  Reads a page of a ranking (players or clans), each entry with its rank by the board's tie rule.

  KEYS: 1-9 seasonEntries (includes/season-ranking)
  ARGV: 1 'desc'|'asc', 2 start position, 3 stop position (0-based, inclusive), 4 the season asked
        ('' for the current one), 5 'players'|'clans', 6 'archive' when the archive reads an
        ended season as it ended (moderated since or not), else absent
  Reply: { total, member, score, metadata ('' for none), tiebreakers, achieved at, rank, ... }
         (includes/entries entryFields), or -1 when Redis does not hold the asked season; or the
         error LBMISSING, LBDUE or LBARCHIVING (includes/season-ranking)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "ended-season"
-- @include "season-ranking"

local E, metadata = seasonEntries(ARGV[4], ARGV[1], ARGV[5], ARGV[6] == 'archive')
if not E then return -1 end
local rows = rangeOf(E, tonumber(ARGV[2]), tonumber(ARGV[3]))
return rowsReply({ redis.call('ZCARD', E.ranking) }, rows, metadata, ARGV[5] == 'players')
