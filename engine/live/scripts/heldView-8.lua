--[[
  The player's held score as their own reads show it (docs/review.md): the held entry, ranked as
  if it counted (1 + the counted entries strictly better, their own counted entry aside), and the
  total counting them once more when they hold no counted entry. A shadow-banned player without
  one sees their hidden entry so (part 6), as a held record of reason 'shadow'.

  KEYS: 1 scores, 2 sortKeys, 3 layout, 4 held, 5 season, 6 hidden, 7 shadowed, 8 metadata
  ARGV: 1 player id, 2 the board's sort order ('desc'|'asc')
  Reply: { held record (includes/review), rank, total }, or {} when the player holds neither;
         or the error LBMISSING or LBDUE (includes/live-season: a board that lost its state is
         rebuilt, held scores included, before this answers)
]]
-- @include "clock"
-- @include "entries"
-- @include "review"
-- @include "live-season"

liveSeason(KEYS[5])
local player = ARGV[1]
local record = redis.call('HGET', KEYS[4], player)
local E = entriesOf(KEYS[1], KEYS[2], storedLayout(KEYS[3]), ARGV[2])
local h = parseHeld(record)
if not h then
  local stored = redis.call('SISMEMBER', KEYS[7], player) == 1 and redis.call('HGET', KEYS[6], player)
  if not stored then return {} end
  h = { us = '0', version = 0, reason = 'shadow', heldAt = '0', entry = fromStoredForm(E, stored), previous = '-',
        metadata = redis.call('HGET', KEYS[8], player) or '' }
  record = formatHeld(h)
end
local counted = entryOf(E, player)
return { record, heldRank(E, player, h.entry, counted), redis.call('ZCARD', KEYS[1]) + (counted and 0 or 1) }
