--[[
  Reserves a server batch's reports on one board before the batch writes any (docs/competitions.md,
  parts 2 and 3): judged as the report script judges its window and entry rules, and, when they
  accept, an attempt for each report and a seat if the player holds none are held for them (`reserve`
  in includes/seats) in the same step, so no other report or entry can take them before the batch's
  reports use them. A batch one board refuses releases the others (releaseReports), so it is refused
  whole; a reservation nobody uses lapses after its lifetime.

  KEYS: 1 season, 2 banned, 3 seasonStarted, 4 scores, 5 sortKeys, 6 layout, 7 hidden, 8 seats,
        9 waiting, 10 reservations, 11 reserved
  ARGV: 1 player id, 2 when the request arrived (ms), 3 opens (ms or ''), 4 closes (ms or ''),
        5 the window's season ('' for none), 6 the seconds each season stays open ('' for none),
        7 '1' when players must enter, 8 the most players, 9 the most attempts, 10 a league's
        group size ('' for none), 11 how many reports of the batch go to this board, 12 how long a
        reservation lasts (ms)
  Reply: 0 when it would pass (or the player is banned: the report script refuses a ban first),
         1 when it passes and reports were reserved (to be used, or released); else the report
         script's reason: 6 the window is not open, 7 not entered, 8 the board is full, 9 too few
         attempts left for the batch's reports; or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "window"
-- @include "seats"

local player = ARGV[1]
if redis.call('SISMEMBER', KEYS[2], player) == 1 then return 0 end
local season = liveSeason(KEYS[1])
if not windowAccepts(season, ARGV[5], ARGV[3], ARGV[4], ARGV[6], KEYS[3], ARGV[2]) then return 6 end
local rules = seatRules(ARGV[7], ARGV[8], ARGV[9], ARGV[10])
if not rules then return 0 end
local E = entriesOf(KEYS[4], KEYS[5], storedLayout(KEYS[6]))
local S = seatKeys(KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11])
local seat = seatRecord(S, player)
local count = tonumber(ARGV[11])
-- Every report of the batch to this board needs an attempt.
seat.used = seat.used + count - 1
local refusal = seatRefusal(E, S, rules, player, seat)
if refusal then return refusal end
reserve(E, S, player, count, tonumber(ARGV[12]))
return 1
