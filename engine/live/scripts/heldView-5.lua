--[[
  The player's held score as their own reads show it (docs/review.md): the held entry, ranked as
  if it counted (1 + the counted entries strictly better, their own counted entry aside), and the
  total counting them once more when they hold no counted entry.

  KEYS: 1 scores, 2 sortKeys, 3 layout, 4 held, 5 season
  ARGV: 1 player id, 2 the board's sort order ('desc'|'asc')
  Reply: { held record (includes/review), rank, total }, or {} when the player holds no held score;
         or the error LBMISSING or LBDUE (includes/live-season: a board that lost its state is
         rebuilt, held scores included, before this answers)
]]
-- @include "clock"
-- @include "entries"
-- @include "review"
-- @include "live-season"

liveSeason(KEYS[5])
local player = ARGV[1]
local h = parseHeld(redis.call('HGET', KEYS[4], player))
if not h then return {} end
local E = entriesOf(KEYS[1], KEYS[2], storedLayout(KEYS[3]), ARGV[2])
local counted = entryOf(E, player)
return { redis.call('HGET', KEYS[4], player), heldRank(E, player, h.entry, counted),
         redis.call('ZCARD', KEYS[1]) + (counted and 0 or 1) }
