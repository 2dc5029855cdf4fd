--[[
  Gives back reports a server batch reserved on one board and will not use (another board refused
  the batch, or its write failed): the attempts and the seat are free again at once
  (docs/competitions.md, part 3).

  KEYS: 1 reservations, 2 reserved
  ARGV: 1 player id, 2 how many reports
  Reply: 1
]]
-- @include "clock"
-- @include "entries"
-- @include "seats"

release(seatKeys('', '', '', KEYS[1], KEYS[2]), ARGV[1], tonumber(ARGV[2]))
return 1
