--[[
  Recomputes one clan's total and scored-member count from its members' current best scores and
  repairs any drift (floating-point sums included). Members are the players PostgreSQL lists that
  the live memberships agree on; the caller has aligned memberships first.

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 season,
        then member (each listed player's member key, in the order of the players in ARGV)
  ARGV: 1 clan id, then the ids of the players that PostgreSQL lists as its members
  Reply: 1 when the stored total or count was wrong and has been repaired, else 0; or the error
         LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "live-season"

local K = boardKeys()
liveSeason(KEYS[10])
local E = liveEntries(K)
local clan = ARGV[1]
local number, storedCount = clanState(K, clan)
local sum, count = 0, 0
for i = 2, #ARGV do
  if number and redis.call('HGET', KEYS[9 + i], ARGV[i]) == number then
    local entry = entryOf(E, ARGV[i])
    if entry then
      sum = saturated(sum + entry.score)
      count = count + 1
    end
  end
end

local storedTotal = redis.call('ZSCORE', K.clans, clan)
if count == 0 then
  if storedTotal == false and storedCount == 0 then return 0 end
  redis.call('ZREM', K.clans, clan)
else
  if storedTotal and tonumber(storedTotal) == sum and storedCount == count then return 0 end
  redis.call('ZADD', K.clans, exact(sum), clan)
end
if number then setClanCount(K, clan, number, count) end
markClan(K, clan, serverClock())
return 1
