-- Held scores (docs/review.md): a client report a board's review rules catch is kept in the
-- board's `held` hash, counted for nobody but its player, until an approval applies it as a report
-- or a rejection drops it. Needs includes/clock and includes/entries.
--
-- held: player -> '<held_us> <version> <reason> <held_at ms> <score> <amount|-> <tiebreakers|->
-- <at|-> <previous score|-> <metadata>': the hold began at held_us (Redis's clock, which tells one
-- hold from the next); each joined report bumps the version; the score, tiebreakers and (earliest
-- boards) time are what the player sees; a sum board also keeps the amount an approval adds;
-- the metadata (compact JSON, possibly empty) comes last since it may hold spaces.

-- held also keeps, under ':approved:<player>' (no player id holds a ':'), the held_us of the
-- player's last approved hold this season, so a retried approval whose decision did not reach
-- PostgreSQL finds it applied and records it, instead of finding nothing (docs/review.md part 4).
local APPROVED = ':approved:'

local function parseHeld(value)
  if not value then return nil end
  local us, version, reason, heldAt, score, amount, tiebreakers, at, previous, metadata =
    string.match(value, '^(%d+) (%d+) (%a+) (%d+) (%S+) (%S+) (%S+) (%S+) (%S+) ?(.*)$')
  local entry = { score = tonumber(score), text = score, tiebreakers = {} }
  if tiebreakers ~= '-' then
    for column in string.gmatch(tiebreakers, '[^,]+') do table.insert(entry.tiebreakers, tonumber(column)) end
  end
  if at ~= '-' then entry.at = tonumber(at) end
  return { us = us, version = tonumber(version), reason = reason, heldAt = heldAt, entry = entry,
           amount = amount ~= '-' and tonumber(amount) or nil, previous = previous, metadata = metadata }
end

local function formatHeld(h)
  local score, tiebreakers, at = entryFields(h.entry)
  return table.concat({ h.us, string.format('%d', h.version), h.reason, h.heldAt, score,
    h.amount and exact(h.amount) or '-', tiebreakers == '' and '-' or tiebreakers, at == '' and '-' or at,
    h.previous, h.metadata }, ' ')
end

-- The board's rules as the API passes them: '<above>|<max gain per second>|<outlier factor>', each
-- '' for none; nil for a board without rules.
local function reviewRules(text)
  if text == '' then return nil end
  local above, gain, outlier = string.match(text, '^([^|]*)|([^|]*)|([^|]*)$')
  return { above = tonumber(above), gain = tonumber(gain), outlier = tonumber(outlier) }
end

-- Why the rules hold the entry a report would make (`after`, replacing `before`), or nil:
-- 'above' a threshold, a 'gain' too fast since the kept score was reached (`reachedMs`), or an
-- 'outlier' beyond the current first entry (`first`, nil on an empty board).
local function holdReason(E, rules, after, before, reachedMs, nowMs, first)
  local function better(x, y) if E.order == 'asc' then return x < y end return x > y end
  if rules.above and better(after.score, rules.above) then return 'above' end
  if rules.gain and before then
    local gain = E.order == 'asc' and before.score - after.score or after.score - before.score
    if gain > rules.gain * math.max(0, nowMs - reachedMs) / 1000 then return 'gain' end
  end
  if rules.outlier and first then
    local margin = rules.outlier * math.abs(first.score)
    local bound = E.order == 'asc' and first.score - margin or first.score + margin
    if better(after.score, bound) then return 'outlier' end
  end
  return nil
end

-- The rank the player's own reads show for the held entry: 1 + the counted entries strictly better
-- by the board's order, their own counted entry (`counted`) aside.
local function heldRank(E, player, entry, counted)
  local rank = rankOfEntry(E, player, entry)
  if counted and entryAhead(E, counted, entry) then rank = rank - 1 end
  return rank
end
