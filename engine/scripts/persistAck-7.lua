--[[
  Clears the persistence marks of values now in PostgreSQL. A mark whose value changed since the
  claim stays, so the change arriving during the write is persisted by the next round. A clan's
  version goes with its mark: the board's clan clock keeps the next one above it.

  A season that ended since the claim took its marks with it (its archive holds the values): the
  marks now present are the new season's, and none of them is cleared.

  A latest or sum entry is compared by its version (its value may come back to the claimed one with
  other metadata), a best one by its score (an improvement never comes back, and brings its metadata).

  KEYS: 1 dirty, 2 scores, 3 dirtyClans, 4 clanVersions, 5 queued, 6 season, 7 versions
  ARGV: 1 the season of the claim, 2 number of players n, then n player/score/version triples
        (version '' on best boards), then clan/version pairs
  Reply: number of marks left; 0 also releases the queued flag, so the next change queues a new job
]]
local n = tonumber(ARGV[2])
local last = 2 + 3 * n
if (redis.call('GET', KEYS[6]) or '') ~= ARGV[1] then
  return redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[3]) + 1
end
for i = 3, last, 3 do
  local player, version = ARGV[i], ARGV[i + 2]
  if version == '' then
    if (redis.call('ZSCORE', KEYS[2], player) or '') == ARGV[i + 1] then
      redis.call('ZREM', KEYS[1], player)
    end
  elseif (redis.call('HGET', KEYS[7], player) or '') == version then
    redis.call('ZREM', KEYS[1], player)
    redis.call('HDEL', KEYS[7], player)
  end
end
for i = last + 1, #ARGV, 2 do
  if (redis.call('HGET', KEYS[4], ARGV[i]) or '0') == ARGV[i + 1] then
    redis.call('ZREM', KEYS[3], ARGV[i])
    redis.call('HDEL', KEYS[4], ARGV[i])
  end
end
local left = redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[3])
if left == 0 then
  redis.call('DEL', KEYS[5])
end
return left
