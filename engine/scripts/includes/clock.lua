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
