-- The score rules, shared by the report and the rebuild's merge. Needs includes/clock and
-- includes/clan-totals.

-- Applies a score by a rule and moves the player's clan total by the change. The rules: 'best' keeps
-- the better score (ZADD GT, or LT when lower is better), 'latest' replaces it, 'sum' adds to it,
-- 'missing' sets only a score Redis lacks (a rebuild of a board whose newest values are Redis's).
-- Returns the score held after it and whether it changed; nil and false when a sum would not be a
-- finite number (nothing changed).
local function applyScore(K, memberKey, player, score, rule, order, clock)
  local before = redis.call('ZSCORE', K.scores, player)
  local flag = 'CH'
  if rule == 'best' then
    flag = order == 'asc' and 'LT' or 'GT'
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
    return before, false
  end
  local after = redis.call('ZSCORE', K.scores, player)
  local clan = clanOf(K, memberKey, player)
  if clan then
    -- Subtracting before adding keeps a total exact while the numbers are ordinary; the difference
    -- of two extreme scores may overflow, which adjustClan saturates.
    local previous = before and tonumber(before) or 0
    adjustClan(K, clan, tonumber(after) - previous, before and 0 or 1, clock)
  end
  return after, true
end
