-- Redis server time: milliseconds for persistence marks, microseconds for clan total versions.
local function serverClock()
  local t = redis.call('TIME')
  return { ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000),
           us = tonumber(t[1]) * 1000000 + tonumber(t[2]) }
end

-- Lua's tostring keeps 14 significant digits; Redis needs every bit of a double.
local function exact(n)
  return string.format('%.17g', n)
end

-- Sums of finite scores can overflow; a clan total saturates at the largest double instead of
-- becoming infinite (which JSON cannot carry) or NaN (which Redis refuses mid-script).
local LARGEST = 1.7976931348623157e308
local function saturated(n)
  if n ~= n then return 0 end
  if n > LARGEST then return LARGEST end
  if n < -LARGEST then return -LARGEST end
  return n
end
