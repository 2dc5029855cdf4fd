--[[
  Replaces a board's scheduled resets with the given instants, or adds them to those it keeps, and
  puts the first in the season key, where every script looks for it (includes/live-season). An
  instant at or before the current season's start is one the board has already carried out (a reset
  script may have run between the caller's reading of the clock and this), so it is left out.

  KEYS: 1 season, 2 seasonStarted, 3 scheduledResets
  ARGV: 1 'replace'|'add', then the instants (ms, ascending); replacing with none: the board has no
        schedule
  Reply: the board's next scheduled instant (ms), or false
]]
-- @include "live-season"

if ARGV[1] == 'replace' then redis.call('DEL', KEYS[3]) end
local startedAt = tonumber(redis.call('GET', KEYS[2]) or '0')
for i = 2, #ARGV do
  if tonumber(ARGV[i]) > startedAt then redis.call('ZADD', KEYS[3], ARGV[i], ARGV[i]) end
end
local due = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
local value = redis.call('GET', KEYS[1])
if value then
  local season = parseSeason(value)
  redis.call('SET', KEYS[1], season .. (due and (':' .. due) or ''))
end
return due and tonumber(due) or false
