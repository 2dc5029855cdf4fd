-- Best ranks (docs/history.md part 4): player -> the best rank their reports reached this season and
-- when. Every ranked player has one, so their form decides a board's memory. One hash per board
-- would pass Redis's listpack limit on any sizeable board and cost ~90 bytes a player as a
-- hashtable; instead a board of BEST_RANKS_SPREAD_AT entries or more spreads them over
-- BEST_RANK_BUCKETS hashes named '<base>:<bucket>' (the base key's hash tag keeps them in its slot),
-- each small enough to stay a listpack, and the value is one integer ('<rank><ms, 13 digits>'),
-- which a listpack keeps in 9 bytes: ~25 bytes a player. A smaller board keeps them in the base
-- hash itself (a few buckets of one player each would cost more than the hashtable).
-- A player's best rank is in one of the two places: each write deletes it from the other.
-- BEST_RANK_BUCKETS is also engine/live/keys.ts's (which drops the buckets with their board).
local BEST_RANK_BUCKETS = 1021
local BEST_RANKS_SPREAD_AT = 2048

local function bestRankBucket(base, player)
  local h = 0
  for i = 1, #player do h = (h * 31 + string.byte(player, i)) % BEST_RANK_BUCKETS end
  return base .. ':' .. h
end

-- '<rank>:<ms>' (the form scripts answer and take) as stored: one integer below rank 900,000
-- (19 digits stay within a signed 64-bit integer), the text itself beyond.
local function storedBestRank(wire)
  local rank, ms = string.match(wire, '^(%d+):(%d+)$')
  if tonumber(rank) >= 900000 then return wire end
  return rank .. string.format('%013d', tonumber(ms))
end

local function wireBestRank(stored)
  if string.find(stored, ':', 1, true) then return stored end
  return string.sub(stored, 1, -14) .. ':' .. tonumber(string.sub(stored, -13))
end

-- The player's best rank as '<rank>:<ms>', or nil.
local function bestRankOf(base, player)
  local stored = redis.call('HGET', base, player) or redis.call('HGET', bestRankBucket(base, player), player)
  return stored and wireBestRank(stored)
end

-- The rank of a '<rank>:<ms>'.
local function rankOfBestRank(wire)
  return tonumber(string.match(wire, '^%d+'))
end

-- Writes the player's best rank ('<rank>:<ms>'); `entries` is the board's number of entries now.
local function setBestRank(base, player, wire, entries)
  local bucket = bestRankBucket(base, player)
  local into, other = base, bucket
  if entries >= BEST_RANKS_SPREAD_AT then into, other = bucket, base end
  redis.call('HSET', into, player, storedBestRank(wire))
  redis.call('HDEL', other, player)
end

local function dropBestRank(base, player)
  redis.call('HDEL', base, player)
  redis.call('HDEL', bestRankBucket(base, player), player)
end

-- Every best rank of the board, for a new season.
local function dropBestRanks(base)
  local keys = { base }
  for bucket = 0, BEST_RANK_BUCKETS - 1 do
    table.insert(keys, base .. ':' .. bucket)
    if #keys == 512 then
      redis.call('UNLINK', unpack(keys))
      keys = {}
    end
  end
  if #keys > 0 then redis.call('UNLINK', unpack(keys)) end
end
