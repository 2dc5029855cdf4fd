-- Best ranks (docs/history.md part 4): player -> the best rank their reports reached this season and
-- when. Every ranked player has one, so their form decides a board's memory. One hash per board
-- would pass Redis's listpack limit on any sizeable board and cost ~90 bytes a player as a
-- hashtable. So the board's size when a best rank is written picks where it goes: level 0, the base
-- hash itself (fewer than 2,048 entries: a few hundred one-field hashes would cost more); level 1,
-- one of 1,021 hashes '<base>:1:<n>' (up to 98,304 entries: ~96 fields a hash, so that hardly any
-- passes Redis's default listpack limit of 128 and turns into a hashtable); level 2, one of 16,381
-- hashes '<base>:2:<n>' (beyond). The base
-- key's hash tag keeps them all in its slot. The value is one integer ('<rank><ms, 13 digits>'),
-- which a listpack keeps in 9 bytes: ~27 bytes a player. A player's best rank is in one place: each
-- write deletes it from the others. '<base>:level' remembers the highest level written this season,
-- so a new season drops only the hashes that may exist.
-- The bucket counts are also engine/live/keys.ts's (which drops the hashes with their board).
local BEST_RANK_LEVELS = { { from = 2048, buckets = 1021 }, { from = 98304, buckets = 16381 } }

-- The level a board of `entries` entries writes to.
local function bestRankLevel(entries)
  local level = 0
  for i, spread in ipairs(BEST_RANK_LEVELS) do
    if entries >= spread.from then level = i end
  end
  return level
end

local function bestRankHash(player)
  local h = 0
  for i = 1, #player do h = (h * 31 + string.byte(player, i)) % 2147483647 end
  return h
end

-- The hash that holds a player's best rank at a level.
local function bestRankKey(base, level, h)
  if level == 0 then return base end
  return base .. ':' .. level .. ':' .. (h % BEST_RANK_LEVELS[level].buckets)
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

-- The player's best rank as '<rank>:<ms>', or nil. `entries` (the board's size now, optional) says
-- which level to look at first.
local function bestRankOf(base, player, entries)
  local h = bestRankHash(player)
  local first = entries and bestRankLevel(entries) or 0
  local stored = redis.call('HGET', bestRankKey(base, first, h), player)
  for level = 0, #BEST_RANK_LEVELS do
    if stored then break end
    if level ~= first then stored = redis.call('HGET', bestRankKey(base, level, h), player) end
  end
  return stored and wireBestRank(stored)
end

-- The rank of a '<rank>:<ms>'.
local function rankOfBestRank(wire)
  return tonumber(string.match(wire, '^%d+'))
end

-- Writes the player's best rank ('<rank>:<ms>'); `entries` is the board's number of entries now.
local function setBestRank(base, player, wire, entries)
  local h = bestRankHash(player)
  local into = bestRankLevel(entries)
  for level = 0, #BEST_RANK_LEVELS do
    if level ~= into then redis.call('HDEL', bestRankKey(base, level, h), player) end
  end
  redis.call('HSET', bestRankKey(base, into, h), player, storedBestRank(wire))
  if into > 0 and into > (tonumber(redis.call('GET', base .. ':level')) or 0) then
    redis.call('SET', base .. ':level', into)
  end
end

local function dropBestRank(base, player)
  local h = bestRankHash(player)
  for level = 0, #BEST_RANK_LEVELS do redis.call('HDEL', bestRankKey(base, level, h), player) end
end

-- Every best rank of the board, for a new season: the hashes of each level written this season.
local function dropBestRanks(base)
  local top = tonumber(redis.call('GET', base .. ':level')) or 0
  local keys = { base, base .. ':level' }
  for level = 1, top do
    for bucket = 0, BEST_RANK_LEVELS[level].buckets - 1 do
      table.insert(keys, base .. ':' .. level .. ':' .. bucket)
      if #keys == 512 then
        redis.call('UNLINK', unpack(keys))
        keys = {}
      end
    end
  end
  if #keys > 0 then redis.call('UNLINK', unpack(keys)) end
end
