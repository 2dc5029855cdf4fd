--[[
  Puts persisted seats back into a board being rebuilt (docs/competitions.md, part 3), after its
  entries: a field Redis already holds stays (it is newer: PostgreSQL follows Redis), and an entered
  player holding no entry waits for a first report again. Seats are already persisted, so nothing
  is marked.

  KEYS: 1 season, 2 scores, 3 sortKeys, 4 layout, 5 hidden, 6 seats, 7 waiting
  ARGV: 1 the season the seats belong to, then player id, '<attempts used>:<entered 0|1>:<version>'
        for each player
  Reply: number of seats set, or -1 when the season has moved on (the seats belong to the ended one)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "seats"

local value = redis.call('GET', KEYS[1])
if value and parseSeason(value) ~= ARGV[1] then return -1 end
local E = entriesOf(KEYS[2], KEYS[3], storedLayout(KEYS[4]))
local S = seatKeys(KEYS[5], KEYS[6], KEYS[7])
local set = 0
for i = 2, #ARGV, 2 do
  local player = ARGV[i]
  if redis.call('HSETNX', S.seats, player, ARGV[i + 1]) == 1 then
    set = set + 1
    if seatRecord(S, player).entered and not holdsEntry(E, S, player) then redis.call('SADD', S.waiting, player) end
  end
end
return set
