-- Competition rank: 1 + the number of strictly better scores, so ties share a rank.
local function rankOf(key, score, order)
  if order == 'asc' then
    return redis.call('ZCOUNT', key, '-inf', '(' .. score) + 1
  end
  return redis.call('ZCOUNT', key, '(' .. score, '+inf') + 1
end

-- Entries start..stop (0-based positions, best first) as {firstRank, member, score, ...}. Ranks of
-- later entries follow from the first: an entry tied with its predecessor shares its rank, any
-- other entry's rank is its position + 1.
local function readRange(key, order, start, stop)
  local entries
  if order == 'asc' then
    entries = redis.call('ZRANGE', key, start, stop, 'WITHSCORES')
  else
    entries = redis.call('ZREVRANGE', key, start, stop, 'WITHSCORES')
  end
  local firstRank = 0
  if #entries > 0 then
    firstRank = rankOf(key, entries[2], order)
  end
  table.insert(entries, 1, firstRank)
  return entries
end
