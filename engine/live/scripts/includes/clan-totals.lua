-- Clan totals bookkeeping (needs includes/clock and includes/entries). A player's membership lives
-- in one of the board's member hashes (memberKey, chosen by the caller) as the clan's number, which
-- costs a few bytes per member where a clan id may take 64. Per clan the board keeps only its total
-- (clans), its number in both directions (clanIds, clanState) and its count of scored members
-- (beside the number in clanState); a total's version exists only until PostgreSQL has the total.

-- The keys every script that moves entries and clan totals takes first (engine/live/keys.ts
-- boardKeys, same order): the ranking, its sort keys and layout (includes/entries), then the clans'.
local function boardKeys()
  return { scores = KEYS[1], sortKeys = KEYS[2], layout = KEYS[3], clans = KEYS[4], clanState = KEYS[5],
           dirtyClans = KEYS[6], clanVersions = KEYS[7], clanIds = KEYS[8], versionClock = KEYS[9] }
end

-- The board's live entries (includes/entries), by its stored layout; `order` for plain boards.
local function liveEntries(K, order)
  return entriesOf(K.scores, K.sortKeys, storedLayout(K.layout), order)
end

-- The player's clan id, or nil.
local function clanOf(K, memberKey, player)
  local number = redis.call('HGET', memberKey, player)
  if number then
    return redis.call('HGET', K.clanIds, number)
  end
  return nil
end

-- The clan's number (nil when it has none yet) and its count of scored members.
local function clanState(K, clan)
  local state = redis.call('HGET', K.clanState, clan)
  if not state then
    return nil, 0
  end
  local number, count = string.match(state, '^(%d+):(%d+)$')
  return number, tonumber(count)
end

local function setClanCount(K, clan, number, count)
  redis.call('HSET', K.clanState, clan, number .. ':' .. count)
end

-- The clan's number, given on first use. Numbers are never taken back while the board lives, so
-- the next one is the count of those given.
local function clanNumber(K, clan)
  local number = clanState(K, clan)
  if not number then
    number = tostring(redis.call('HLEN', K.clanIds) + 1)
    redis.call('HSET', K.clanIds, number, clan)
    setClanCount(K, clan, number, 0)
  end
  return number
end

-- The next version of the board: it only grows, even across a Redis data loss (it follows the server
-- clock), so PostgreSQL never takes an older value over a newer one. The board's last version keeps
-- it growing when the clock does not.
local function nextVersion(K, clock)
  local last = tonumber(redis.call('GET', K.versionClock) or '0')
  local version = string.format('%.0f', math.max(clock.us, last + 1))
  redis.call('SET', K.versionClock, version)
  return version
end

-- Marks a clan total for persistence with a new version.
local function markClan(K, clan, clock)
  redis.call('ZADD', K.dirtyClans, 'NX', clock.ms, clan)
  redis.call('HSET', K.clanVersions, clan, nextVersion(K, clock))
end

-- Moves a clan's total by delta and its count of scored members by countDelta. A clan whose last
-- scored member leaves is unranked, whatever rounding left in its total; one with a scored member is
-- ranked, whatever its total.
local function adjustClan(K, clan, delta, countDelta, clock)
  local number, count = clanState(K, clan)
  -- A member always finds its clan numbered; should drifted state say otherwise, number it now.
  number = number or clanNumber(K, clan)
  count = math.max(0, count + countDelta)
  setClanCount(K, clan, number, count)
  if count == 0 then
    redis.call('ZREM', K.clans, clan)
  else
    -- A clan whose first scored member holds 0 is ranked (at 0) like any clan with a scored member.
    local total = redis.call('ZSCORE', K.clans, clan)
    if delta ~= 0 or not total then
      redis.call('ZADD', K.clans, exact(saturated(tonumber(total or '0') + delta)), clan)
    end
  end
  markClan(K, clan, clock)
end

-- Moves a player to another clan (or to none, when clan is ''), carrying their score (E: the
-- board's live entries).
local function moveToClan(K, E, memberKey, player, clan, clock)
  local old = clanOf(K, memberKey, player)
  if (old or '') == clan then
    return false
  end
  local entry = entryOf(E, player)
  if old then
    redis.call('HDEL', memberKey, player)
    if entry then adjustClan(K, old, -entry.score, -1, clock) end
  end
  if clan ~= '' then
    redis.call('HSET', memberKey, player, clanNumber(K, clan))
    if entry then adjustClan(K, clan, entry.score, 1, clock) end
  end
  return true
end
