--[[
  Drops index entries that the sweep found without marks, unless a caller touched them within the
  grace period: such a caller may be about to mark the board, and a dropped entry would hide its
  marks. Callers touch before they mark and re-touch well within the grace period, so an entry that
  is older than it has no writer on the way.

  KEYS: 1 pendingIndex (the pending index)
  ARGV: 1 grace period (ms), then internal ids the sweep found without marks
  Reply: number of entries dropped
]]
local t = redis.call('TIME')
local cutoff = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[1])
local dropped = 0
for i = 2, #ARGV do
  local touched = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if touched and tonumber(touched) <= cutoff then
    redis.call('ZREM', KEYS[1], ARGV[i])
    dropped = dropped + 1
  end
end
return dropped
