-- A board's entries, in one of two layouts (docs/ordering.md). Needs includes/clock.
--
-- Plain (no layout: 'shared' ties and no tiebreakers): the ranking zset holds player -> score, the
-- best kept with ZADD GT/LT; rank = 1 + the strictly better scores (ZCOUNT).
--
-- Keyed (a layout: 'earliest' ties, or tiebreakers): every member has the score 0 and orders by its
-- bytes, best first: member = sort key .. player id, sort key = key(score) .. key(tiebreaker)... ..
-- [6-byte achieved_at on 'earliest' boards]; the hash sortKeys finds a player's sort key. key(x) is
-- the double's IEEE-754 bytes made to sort as numbers do (and inverted where higher is better).
-- Rank on 'earliest' boards is the position; on 'shared' ones 1 + the members below the sort key's
-- columns (ZLEXCOUNT, exact since every member has the same score).
--
-- A layout string is '<tie: e|s><order: d|a><one d|a per tiebreaker>', e.g. 'ed' or 'sdda'.
-- Lua never compares these byte strings itself (its string order follows the server's locale):
-- entries are compared column by column as numbers, and only Redis orders the bytes.

-- An entry: { score = number, tiebreakers = { numbers } (keyed only), at = ms (earliest only) }.

-- The entries of one ranking: `ranking` the zset, `sortKeys` the hash (keyed), `layout` as stored
-- ('' or nil for plain), `order` the board's sort order (plain boards; keyed ones carry it).
local function entriesOf(ranking, sortKeys, layout, order)
  if not layout or layout == '' then
    return { ranking = ranking, keyed = false, order = order, columns = 0 }
  end
  local dirs = {}
  for i = 3, #layout do dirs[i - 2] = string.sub(layout, i, i) == 'd' end
  return {
    ranking = ranking, sortKeys = sortKeys, keyed = true, earliest = string.sub(layout, 1, 1) == 'e',
    order = string.sub(layout, 2, 2) == 'a' and 'asc' or 'desc', higherBetter = dirs, columns = #dirs,
    width = 8 * (1 + #dirs),
  }
end

-- The stored layout of a board ('' for plain).
local function storedLayout(layoutKey)
  return redis.call('GET', layoutKey) or ''
end

local TWO_32 = 4294967296
local SIGN = 2147483648

-- A 32-bit word's bits inverted, as a number from 0 to 2^32 - 1 (bit.bnot answers a signed one).
local function flipped(word)
  return bit.bnot(word) % TWO_32
end

-- 8 bytes that sort (bytewise ascending) as x sorts (ascending; descending when higherIsBetter):
-- a negative double's bits all inverted, a positive one's sign bit set. Worked on as two 32-bit
-- words, not byte by byte: a report encodes up to 5 of these.
local function encodeColumn(x, higherIsBetter)
  if x == 0 then x = 0 end -- -0 and 0 are equal: one encoding
  local high, low = struct.unpack('>I4I4', struct.pack('>d', x))
  if high >= SIGN then high, low = flipped(high), flipped(low) else high = high + SIGN end
  if higherIsBetter then high, low = flipped(high), flipped(low) end
  return struct.pack('>I4I4', high, low)
end

local function decodeColumn(s, higherIsBetter)
  local high, low = struct.unpack('>I4I4', s)
  if higherIsBetter then high, low = flipped(high), flipped(low) end
  if high >= SIGN then high = high - SIGN else high, low = flipped(high), flipped(low) end
  return (struct.unpack('>d', struct.pack('>I4I4', high, low)))
end

local function encodeTime(ms)
  local bytes = {}
  for i = 6, 1, -1 do
    bytes[i] = ms % 256
    ms = math.floor(ms / 256)
  end
  return string.char(unpack(bytes))
end

local function decodeTime(s)
  local ms = 0
  for i = 1, 6 do ms = ms * 256 + string.byte(s, i) end
  return ms
end

-- The sort key of an entry on a keyed board; `columnsOnly` leaves the time out (a shared rank's bound).
-- An entry keeps its whole key once made or read (entry.key): set its fields before asking for it.
local function sortKeyOf(E, entry, columnsOnly)
  local whole = not (columnsOnly and E.earliest) -- without a time, the columns are the whole key
  if whole and entry.key then return entry.key end
  local parts = { encodeColumn(entry.score, E.order ~= 'asc') }
  for i = 1, E.columns do parts[i + 1] = encodeColumn(entry.tiebreakers[i], E.higherBetter[i]) end
  if E.earliest and whole then parts[#parts + 1] = encodeTime(entry.at) end
  local key = table.concat(parts)
  if whole then entry.key = key end
  return key
end

local function decodeSortKey(E, key)
  local entry = { score = decodeColumn(string.sub(key, 1, 8), E.order ~= 'asc'), tiebreakers = {}, key = key }
  for i = 1, E.columns do
    entry.tiebreakers[i] = decodeColumn(string.sub(key, 8 * i + 1, 8 * i + 8), E.higherBetter[i])
  end
  if E.earliest then entry.at = decodeTime(string.sub(key, E.width + 1, E.width + 6)) end
  return entry
end

-- The length of a keyed board's sort keys.
local function sortKeyLength(E)
  return E.width + (E.earliest and 6 or 0)
end

-- The player's entry, or nil. A plain entry's score keeps Redis's own text (`text`).
local function entryOf(E, player)
  if not E.keyed then
    local score = redis.call('ZSCORE', E.ranking, player)
    return score and { score = tonumber(score), text = score } or nil
  end
  local key = redis.call('HGET', E.sortKeys, player)
  return key and decodeSortKey(E, key) or nil
end

-- -1 when entry a is better than b, 1 when worse, 0 when equal on every column (time aside).
local function compareEntries(E, a, b)
  local function by(x, y, higherIsBetter)
    if x == y then return 0 end
    if (x > y) == higherIsBetter then return -1 end
    return 1
  end
  local c = by(a.score, b.score, E.order ~= 'asc')
  for i = 1, E.columns do
    if c ~= 0 then return c end
    c = by(a.tiebreakers[i], b.tiebreakers[i], E.higherBetter[i])
  end
  return c
end

-- Puts the player's entry (replacing `before`, their current one, when given).
local function putEntry(E, player, entry, before)
  if not E.keyed then
    redis.call('ZADD', E.ranking, entry.text or exact(entry.score), player)
    return
  end
  if before then redis.call('ZREM', E.ranking, sortKeyOf(E, before) .. player) end
  local key = sortKeyOf(E, entry)
  redis.call('ZADD', E.ranking, 0, key .. player)
  redis.call('HSET', E.sortKeys, player, key)
end

local function removeEntry(E, player, entry)
  if not E.keyed then
    redis.call('ZREM', E.ranking, player)
    return
  end
  redis.call('ZREM', E.ranking, sortKeyOf(E, entry) .. player)
  redis.call('HDEL', E.sortKeys, player)
end

-- An entry as kept apart (a banned player's hidden entry): a plain score's text, or the sort key.
local function storedFormOf(E, entry)
  if not E.keyed then return entry.text or exact(entry.score) end
  return sortKeyOf(E, entry)
end

local function fromStoredForm(E, stored)
  if not E.keyed then return { score = tonumber(stored), text = stored } end
  return decodeSortKey(E, stored)
end

-- The entries of list[first..], false where a player has none: one call per 1,000 players (ZMSCORE,
-- or HMGET of the sort keys), not one each, since a call costs Redis about what a skiplist walk does.
local function entriesOfList(E, list, first)
  local entries = {}
  for from = first, #list, 1000 do
    local to = math.min(from + 999, #list)
    local found = E.keyed and redis.call('HMGET', E.sortKeys, unpack(list, from, to))
      or redis.call('ZMSCORE', E.ranking, unpack(list, from, to))
    for i, value in ipairs(found) do
      entries[from - first + i] = value and fromStoredForm(E, value)
    end
  end
  return entries
end

-- Competition rank on a plain ranking: 1 + the number of strictly better scores. Both counts
-- start at the lowest score: ZCOUNT walks the skiplist to each end of its range, and the low end
-- is the list's head, while a range up to +inf walks on to its tail (about a third cheaper at 1M).
-- `size`, the ranking's ZCARD when the caller has it, spares a call per rank of a list.
local function scoreRank(key, score, order, size)
  if order == 'asc' then
    return redis.call('ZCOUNT', key, '-inf', '(' .. score) + 1
  end
  return (size or redis.call('ZCARD', key)) - redis.call('ZCOUNT', key, '-inf', score) + 1
end

-- The rank an entry has (or would have, were it in the ranking) by the board's tie rule; `size`
-- as scoreRank takes it.
local function rankOfEntry(E, player, entry, size)
  if not E.keyed then return scoreRank(E.ranking, entry.text or exact(entry.score), E.order, size) end
  if E.earliest then
    return redis.call('ZLEXCOUNT', E.ranking, '-', '(' .. sortKeyOf(E, entry) .. player) + 1
  end
  return redis.call('ZLEXCOUNT', E.ranking, '-', '(' .. sortKeyOf(E, entry, true)) + 1
end

-- The 0-based position of the player's entry, best first, or nil.
local function positionOf(E, player)
  if not E.keyed then
    if E.order == 'asc' then return redis.call('ZRANK', E.ranking, player) end
    return redis.call('ZREVRANK', E.ranking, player)
  end
  local key = redis.call('HGET', E.sortKeys, player)
  return key and redis.call('ZRANK', E.ranking, key .. player) or nil
end

-- The fields a reply gives of an entry: score, tiebreakers (comma-separated, '' for none), achieved
-- at (ms, '' for none). Every number exact.
local function entryFields(entry)
  local tiebreakers = ''
  if entry.tiebreakers and #entry.tiebreakers > 0 then
    local texts = {}
    for i, value in ipairs(entry.tiebreakers) do texts[i] = exact(value) end
    tiebreakers = table.concat(texts, ',')
  end
  return entry.text or exact(entry.score), tiebreakers, entry.at and string.format('%.0f', entry.at) or ''
end

-- The best entry (nil on an empty board), without the rank rangeOf would also count.
local function firstEntry(E)
  if not E.keyed then
    local flat = E.order == 'asc' and redis.call('ZRANGE', E.ranking, 0, 0, 'WITHSCORES')
      or redis.call('ZREVRANGE', E.ranking, 0, 0, 'WITHSCORES')
    return flat[1] and { score = tonumber(flat[2]), text = flat[2] } or nil
  end
  local member = redis.call('ZRANGE', E.ranking, 0, 0)[1]
  return member and decodeSortKey(E, string.sub(member, 1, sortKeyLength(E))) or nil
end

-- Entries start..stop (0-based positions, best first) as a list of { player, entry, rank }.
local function rangeOf(E, start, stop)
  local rows = {}
  if not E.keyed then
    local flat
    if E.order == 'asc' then
      flat = redis.call('ZRANGE', E.ranking, start, stop, 'WITHSCORES')
    else
      flat = redis.call('ZREVRANGE', E.ranking, start, stop, 'WITHSCORES')
    end
    for i = 1, #flat, 2 do
      local rank
      if i > 1 and flat[i + 1] == flat[i - 1] then
        rank = rows[#rows].rank
      elseif i == 1 then
        rank = scoreRank(E.ranking, flat[2], E.order)
      else
        rank = start + #rows + 1
      end
      table.insert(rows, { player = flat[i], entry = { score = tonumber(flat[i + 1]), text = flat[i + 1] }, rank = rank })
    end
    return rows
  end
  local members = redis.call('ZRANGE', E.ranking, start, stop)
  local length = sortKeyLength(E)
  for i, member in ipairs(members) do
    local key = string.sub(member, 1, length)
    local row = { player = string.sub(member, length + 1), entry = decodeSortKey(E, key) }
    if E.earliest then
      row.rank = start + i
    elseif i > 1 and string.sub(members[i - 1], 1, E.width) == string.sub(key, 1, E.width) then
      row.rank = rows[i - 1].rank
    elseif i == 1 then
      row.rank = redis.call('ZLEXCOUNT', E.ranking, '-', '(' .. string.sub(key, 1, E.width)) + 1
    else
      row.rank = start + i
    end
    rows[i] = row
  end
  return rows
end

-- Whether entry a ranks strictly ahead of b: better on a column, or (earliest) equal on them all and
-- reached first.
local function entryAhead(E, a, b)
  local c = compareEntries(E, a, b)
  if c ~= 0 or not E.earliest then return c < 0 end
  return a.at < b.at
end

-- The positions (0-based, best first; `from` inclusive, `to` exclusive) of the entries strictly
-- behind the player's entry `after` and strictly ahead of the entry `before` it replaced (nil: it
-- had none): those the change moved ahead of.
local function passedPositions(E, player, after, before)
  local from, to
  if not E.keyed then
    local new, old = after.text or exact(after.score), before and (before.text or exact(before.score))
    if E.order == 'asc' then
      from = redis.call('ZCOUNT', E.ranking, '-inf', new)
      to = old and redis.call('ZCOUNT', E.ranking, '-inf', '(' .. old)
    else
      from = redis.call('ZCOUNT', E.ranking, new, '+inf')
      to = old and redis.call('ZCOUNT', E.ranking, '(' .. old, '+inf')
    end
  elseif E.earliest then
    from = redis.call('ZLEXCOUNT', E.ranking, '-', '[' .. sortKeyOf(E, after) .. player)
    to = before and redis.call('ZLEXCOUNT', E.ranking, '-', '(' .. sortKeyOf(E, before) .. player)
  else
    -- Player ids are URL-safe ASCII: a byte 255 after the columns sorts after every member holding them.
    from = redis.call('ZLEXCOUNT', E.ranking, '-', '(' .. sortKeyOf(E, after, true) .. '\255')
    to = before and redis.call('ZLEXCOUNT', E.ranking, '-', '(' .. sortKeyOf(E, before, true))
  end
  return from, to or redis.call('ZCARD', E.ranking)
end

-- The players a change of the player's entry from `before` to `after` overtook (docs/events.md part
-- 5): strictly ahead before, strictly behind after, ranked within `notifyTop` before (their rank now
-- less one), nearest first, at most 50; as '<player> <rank now> ...' ('' for none).
local function overtakenBy(E, player, after, before, notifyTop)
  local from, to = passedPositions(E, player, after, before)
  if to <= from then return '' end
  local parts = {}
  for _, row in ipairs(rangeOf(E, from, math.min(to, from + 50) - 1)) do
    if row.rank - 1 > notifyTop then break end
    parts[#parts + 1] = row.player .. ' ' .. string.format('%d', row.rank)
  end
  return table.concat(parts, ' ')
end
