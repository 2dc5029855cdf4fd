-- The score rules, shared by the report and the rebuild's merge. Needs includes/clock,
-- includes/entries and includes/clan-totals.

-- Moves the player's clan total from the entry they held (nil: none) to the one they hold now.
local function moveClanBy(K, memberKey, player, before, after, clock)
  local clan = clanOf(K, memberKey, player)
  if clan then
    -- Subtracting before adding keeps a total exact while the numbers are ordinary; the difference
    -- of two extreme scores may overflow, which adjustClan saturates.
    adjustClan(K, clan, after.score - (before and before.score or 0), before and 0 or 1, clock)
  end
end

-- A plain board (includes/entries): 'best' keeps the better score (ZADD GT, or LT when lower is
-- better), 'latest' replaces it, 'sum' adds to it, 'missing' sets only a score Redis lacks (a
-- rebuild of a board whose newest values are Redis's).
local function applyPlainScore(K, E, memberKey, player, score, rule, clock)
  local before = redis.call('ZSCORE', K.scores, player)
  local flag = 'CH'
  if rule == 'best' then
    flag = E.order == 'asc' and 'LT' or 'GT'
  elseif rule == 'missing' then
    flag = 'NX'
  elseif rule == 'sum' then
    local sum = (before and tonumber(before) or 0) + tonumber(score)
    if sum ~= sum or sum == math.huge or sum == -math.huge then
      return nil, false
    end
    score = exact(sum)
  end
  local changed = flag == 'CH' and redis.call('ZADD', K.scores, 'CH', score, player)
    or redis.call('ZADD', K.scores, flag, 'CH', score, player)
  if changed == 0 then
    return { score = tonumber(before), text = before }, false
  end
  local after = redis.call('ZSCORE', K.scores, player)
  local held = { score = tonumber(after), text = after }
  moveClanBy(K, memberKey, player, before and { score = tonumber(before) }, held, clock)
  return held, true
end

-- A keyed board: the same rules over whole entries. 'best' keeps the better entry by score, then
-- each tiebreaker (an equal one changes nothing, its time included); 'latest' replaces the entry and
-- its time; 'sum' adds to the score, and the time moves only when the sum does. `report` is
-- { score, tiebreakers, at }: the time the entry takes when it changes.
local function applyKeyedScore(K, E, memberKey, player, report, rule, clock)
  local before = entryOf(E, player)
  -- Only an 'earliest' board keeps the time: elsewhere it is not part of the entry, and a latest
  -- report equal to the entry held changes nothing.
  local entry = { score = report.score, tiebreakers = report.tiebreakers, at = E.earliest and report.at or nil }
  local changed
  if rule == 'best' then
    changed = not before or compareEntries(E, entry, before) < 0
  elseif rule == 'missing' then
    changed = not before
  elseif rule == 'sum' then
    local sum = (before and before.score or 0) + report.score
    if sum ~= sum or sum == math.huge or sum == -math.huge then
      return nil, false
    end
    entry.score = sum
    changed = not before or sum ~= before.score
  else
    changed = not before or compareEntries(E, entry, before) ~= 0 or entry.at ~= before.at
  end
  if not changed then return before, false end
  putEntry(E, player, entry, before)
  moveClanBy(K, memberKey, player, before, entry, clock)
  return entry, true
end

-- Applies a report (or a merged entry) by a rule, moving the player's clan total by the change.
-- `report` is { score (number), tiebreakers, at } (the last two on keyed boards). Returns the entry
-- held after it and whether it changed (the score, a tiebreaker or, on earliest boards, the time);
-- nil and false when a sum would not be a finite number (nothing changed).
local function applyScore(K, E, memberKey, player, report, rule, clock)
  if not E.keyed then return applyPlainScore(K, E, memberKey, player, report.text, rule, clock) end
  return applyKeyedScore(K, E, memberKey, player, report, rule, clock)
end
