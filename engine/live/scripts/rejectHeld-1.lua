--[[
  Drops a held score a reviewer rejected (docs/review.md), if it is still the one reviewed.

  KEYS: 1 held
  ARGV: 1 player id, 2 the hold's held_us
  Reply: 1 when dropped, 0 when the player holds no such held score
]]
-- @include "clock"
-- @include "entries"
-- @include "review"

local h = parseHeld(redis.call('HGET', KEYS[1], ARGV[1]))
if not h or h.us ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
