--[[
  Changes a key only if it still holds the value the caller last saw: releases and renews locks
  only by their holder, and advances the rebuild cursor only if no newer request reset it.

  KEYS: 1 key (the key to change)
  ARGV: 1 expected value, 2 new value ('' deletes the key), 3 lifetime in ms (optional; 0 or absent keeps none)
  Reply: 1 when changed, 0 when the key held something else
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
elseif ARGV[3] and tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return 1
