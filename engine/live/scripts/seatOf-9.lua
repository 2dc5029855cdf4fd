--[[
  What the client's competitions list shows of a board for one player (docs/competitions.md,
  parts 3 and 5): the seats taken in the current season (a seat is held by an entry, ranked or
  hidden by a ban, or by entering), whether this player holds one, and their attempts used.

  KEYS: 1 season, 2 scores, 3 sortKeys, 4 layout, 5 hidden, 6 seats, 7 waiting, 8 reservations,
        9 reserved
  ARGV: 1 player id
  Reply: { seats taken (a batch's reserved ones included), holds one (0|1), attempts used }; or the error LBMISSING or LBDUE
         (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "seats"

liveSeason(KEYS[1])
local player = ARGV[1]
local E = entriesOf(KEYS[2], KEYS[3], storedLayout(KEYS[4]))
local S = seatKeys(KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9])
return { seatsTaken(E, S), holdsSeat(E, S, player) and 1 or 0, seatRecord(S, player).used }
