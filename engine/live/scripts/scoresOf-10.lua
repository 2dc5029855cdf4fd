--[[
  Reads the entry and rank (by the board's tie rule) of each given member of a ranking; or, for the
  'hidden' view, the entries banned players hold out of the current season's ranking (unranked).

  KEYS: 1-9 seasonEntries (includes/season-ranking; for 'hidden', 1 is hidden), 10 bestRanks
        (includes/best-ranks)
  ARGV: 1 'desc'|'asc', 2 the season asked ('' for the current one), 3 'players'|'clans'|'hidden',
        4 'best' when the first member's best rank this season is wanted too ('' otherwise: a
        record's read, in its one step), then member ids
  Reply: { total, the season read, how entries of equal rank are listed ('desc': by member
         bytewise descending, on plain 'desc' rankings read in reverse; else 'asc'), score ('' when
         none), rank (0 when none), metadata ('' for none), tiebreakers, achieved at, ..., then
         with 'best' the first member's best rank ('<rank>:<ms>', '' for none or on an ended
         season) }, or -1
         when Redis does not hold the asked season; or the error LBMISSING, LBDUE or LBARCHIVING
  No position is read: rank, then that member order, is the ranking's order (engine/live/rankings.ts
  sorts by them), and a position would cost each member another walk of the ranking.
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "ended-season"
-- @include "season-ranking"
-- @include "best-ranks"

local view = ARGV[3]
-- Appends the entry's 5 fields at reply[n + 1..n + 5]; a list's cost is per member, so no table is
-- built per entry.
local function addEntry(reply, n, entry, rank, metadata)
  if not entry then
    reply[n + 1], reply[n + 2], reply[n + 3], reply[n + 4], reply[n + 5] = '', 0, '', '', ''
    return
  end
  local score, tiebreakers, at = entryFields(entry)
  reply[n + 1], reply[n + 2], reply[n + 3], reply[n + 4], reply[n + 5] = score, rank, metadata, tiebreakers, at
end

-- How a ranking lists entries of equal rank: by member, descending on plain 'desc' rankings.
local function tiesListed(E)
  return (not E.keyed and E.order ~= 'asc') and 'desc' or 'asc'
end

if view == 'hidden' then
  local E = entriesOf(KEYS[1], nil, storedLayout(KEYS[9]), ARGV[1])
  local reply = { 0, tonumber(liveSeason(KEYS[2])), tiesListed(E) }
  for i = 5, #ARGV do
    local stored = redis.call('HGET', KEYS[1], ARGV[i])
    addEntry(reply, 3 + 5 * (i - 5), stored and fromStoredForm(E, stored), 0, '')
  end
  return reply
end

local E, metadataKey, season = seasonEntries(ARGV[2], ARGV[1], view)
if not E then return -1 end
local metadata = metadataOf(metadataKey, view == 'players', ARGV, 5, 1)
local entries = entriesOfList(E, ARGV, 5)
local size = redis.call('ZCARD', E.ranking)
local reply = { size, tonumber(season), tiesListed(E) }
for i = 5, #ARGV do
  local entry = entries[i - 4]
  addEntry(reply, 3 + 5 * (i - 5), entry, entry and rankOfEntry(E, ARGV[i], entry, size), metadata[i - 4])
end
if ARGV[4] == 'best' then
  local live = E.ranking == KEYS[1] and ARGV[5]
  reply[#reply + 1] = live and bestRankOf(KEYS[10], ARGV[5], size) or ''
end
return reply
