--[[
  Indexes leaderboards that are about to receive persistence marks, so the sweep, the pending count
  and /readyz visit only boards with something behind them. Run before the script that marks: a
  board with marks is then always in the index. The entry's score is Redis's own time, so the idle
  check compares times of one clock whatever host the caller runs on.

  KEYS: 1 pendingIndex (zset internal id -> time of the last touch, ms)
  ARGV: internal ids of the leaderboards
  Reply: the time written (ms)
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #ARGV do
  redis.call('ZADD', KEYS[1], now, ARGV[i])
end
return now
