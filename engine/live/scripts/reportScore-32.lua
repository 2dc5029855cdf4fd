--[[
  Records one reported score atomically, by the board's rule, and answers with the rank it gives.
  With an Idempotency-Key, the answer is remembered in the same step, so a retried request is
  answered again without being applied again, and no crash can fall between the two.

  KEYS: 1-9 boardKeys (includes/clan-totals), 10 dirty, 11 queued, 12 member (the player's member
        key), 13 season, 14 metadata, 15 versions, 16 retryRecord (the request's record on this board),
        17 banned, 18 seasonStarted, 19 hidden, 20 seats, 21 waiting, 22 groups, 23 groupIndex,
        24 groupRoom, 25 tiers, 26 reservations, 27 reserved (includes/seats), 28 overtaken (the
        board's stream of player.overtaken records), 29 bestRanks (the best rank their reports
        reached this season, includes/best-ranks), 30 held (held scores, includes/review), 31 reached
        (player -> when their kept score was reached (ms), kept on boards judging gains), 32 shadowed
        (the shadow-banned players, whose client reports are held, docs/review.md part 6)
  ARGV: 1 player id, 2 score, 3 'desc'|'asc', 4 queued-flag lifetime (ms), 5 the rule:
        'best'|'latest'|'sum', 6 the metadata as compact JSON ('' for none), 7 the request's
        fingerprint ('' without an Idempotency-Key), 8 how long the record lives (ms), 9 the
        tiebreakers, comma-separated ('' for none), 10 when the request arrived (ms), 11-13 the
        board's window: opens, closes (ms or '') and its season ('' for none), 14 the seconds each
        season stays open from its start ('' for none) (includes/window), 15-18 the board's
        entry rules: '1' when players must enter ('' otherwise), the most players, the most
        attempts, a league's group size ('' for none) (includes/seats), 19 '1' when the report
        uses an attempt (and seat) its batch reserved ('' otherwise), 20 the board's notify_top
        ('' or 0 for none), 21 the board's review rules ('' for none, includes/review), 22 '1' for a
        client's report (the rules judge it; a shadow-banned player's is held), 23 to approve a held score instead of reporting:
        its held_us ('' for a report; the score, tiebreakers and metadata are then the held ones)
  Reply: { score held, changed (0|1), rank, total, needs a persistence job (0|1), season,
         tiebreakers held (comma-separated, '' for none), achieved at (ms, '' unless earliest), attempts left ('' without a limit),
         was among the first 100 before a change that may have moved it down (0|1), the players
         it overtook within notify_top, nearest first ('<player> <rank now> ...', '' for none),
         the held record when the report was held (includes/review; its rank is then the one the
         player's own reads show) } (for
         a request answered before: the first nine of that answer, needing no job, then, while the
         player holds a held score in the answer's season, 0, '' and its record, so the caller
         writes it again: docs/review.md part 5); or { reason } when nothing was
         applied: 2 the key came with another request, 3 the sum would not be a finite number,
         4 the player is banned, 5 the tiebreakers do not fit the board's layout (its tie settings
         changed since the caller read them), 6 the season's window is not open (upcoming or
         closed), 7 the player has not entered, 8 the board is full, 9 no attempt left, 10 no
         such held score to approve (decided, or its season ended), 11 that hold was applied by
         an earlier approval (its decision is still to be recorded); or the
         error LBMISSING or LBDUE (includes/live-season) or LBMOVES (includes/seats)
]]
-- @include "clock"
-- @include "entries"
-- @include "clan-totals"
-- @include "apply-score"
-- @include "live-season"
-- @include "best-ranks"
-- @include "window"
-- @include "seats"
-- @include "review"

local K = boardKeys()
local dirty, queued, memberKey, seasonKey, metadata, versions, record = KEYS[10], KEYS[11], KEYS[12], KEYS[13], KEYS[14], KEYS[15], KEYS[16]
local player, order, rule, fingerprint = ARGV[1], ARGV[3], ARGV[5], ARGV[7]
local heldKey, reachedKey = KEYS[30], KEYS[31]
local rules = reviewRules(ARGV[21])
local metadataJson, scoreText, tiebreakerText = ARGV[6], ARGV[2], ARGV[9]

-- The season is read in the same step as the score is applied, so a reset (which moves the live
-- keys aside and bumps this number in one step of its own) falls wholly before or after this report;
-- a report after the scheduled reset waits for it (LBDUE), whoever has yet to carry it out.
local season = liveSeason(seasonKey)

-- Checked in the same step as the score would be applied: a ban (moderateEntry) falls wholly before
-- or after this report, so no report of a banned player ever lands. Before the Idempotency-Key: a
-- retry after the ban is refused too. A shadow-banned player's client report is held instead, never
-- refused, so they are not told (docs/review.md part 6); the game server's is refused.
local shadowed = false
if redis.call('SISMEMBER', KEYS[17], player) == 1 then
  if ARGV[22] ~= '1' or redis.call('SISMEMBER', KEYS[32], player) == 0 then return { 4 } end
  shadowed = true
end

-- An approval (docs/review.md) applies the held score as a report made now, by the board's rule:
-- the held entry (a sum board's held amount), its metadata. Its window, seat and attempt were
-- judged when it was held, so they are not judged again.
local approving = ARGV[23] ~= ''
if approving then
  local h = parseHeld(redis.call('HGET', heldKey, player))
  if not h or h.us ~= ARGV[23] then
    return { redis.call('HGET', heldKey, APPROVED .. player) == ARGV[23] and 11 or 10 }
  end
  scoreText = h.amount and exact(h.amount) or h.entry.text
  tiebreakerText = select(2, entryFields(h.entry))
  metadataJson = h.metadata
  fingerprint = ''
end

if fingerprint ~= '' then
  local first = redis.call('GET', record)
  if first then
    if string.sub(first, 1, #fingerprint) ~= fingerprint then return { 2 } end
    local score, changed, rank, total, answered, tiebreakers, at, left = string.match(first, ' (%S+) (%d) (%d+) (%d+) (%d+) (%S+) (%S+) (%S+)$')
    if not score then
      -- A record written before answers carried the attempts left.
      score, changed, rank, total, answered, tiebreakers, at = string.match(first, ' (%S+) (%d) (%d+) (%d+) (%d+) (%S+) (%S+)$')
      left = '-'
    end
    if not score then
      -- A record written before answers carried tiebreakers.
      score, changed, rank, total, answered = string.match(first, ' (%S+) (%d) (%d+) (%d+) (%d+)$')
      tiebreakers, at, left = '-', '-', '-'
    end
    local answer = { score, tonumber(changed), tonumber(rank), tonumber(total), 0, tonumber(answered),
                     tiebreakers == '-' and '' or tiebreakers, at == '-' and '' or at, left == '-' and '' or left }
    -- A hold's first answer may have failed to reach PostgreSQL: its retry writes it (idempotent).
    local heldNow = tonumber(answered) == tonumber(season) and redis.call('HGET', heldKey, player)
    if heldNow then
      table.insert(answer, 0)
      table.insert(answer, '')
      table.insert(answer, heldNow)
    end
    return answer
  end
end

-- After the replay (a retried request gets its first answer even once the window has closed), judged
-- at the request's arrival, in the same step as the season it would count in.
if not approving and not windowAccepts(season, ARGV[13], ARGV[11], ARGV[12], ARGV[14], KEYS[18], ARGV[10]) then return { 6 } end

local E = liveEntries(K, order)
-- Then entry, seat and attempts, in that order, in the same step as the report would apply, so a
-- limit is never passed by one under any concurrency. Boards without rules (most) return at once.
local seating = not approving and seatRules(ARGV[15], ARGV[16], ARGV[17], ARGV[18])
local S, seat, usesReservation
if seating then
  S = seatKeys(KEYS[19], KEYS[20], KEYS[21], KEYS[26], KEYS[27])
  seat = seatRecord(S, player)
  -- A batch's report uses what the batch reserved: judged as given back, then taken as any report
  -- takes it; given back for real only once the report applies (nothing is written before that, so
  -- a refusal or an LBMOVES leaves the reservation for the call asked again).
  usesReservation = ARGV[19] == '1' and seat.reserved > 0
  if usesReservation then
    seat.reserved = seat.reserved - 1
    -- A seat held for the batch was judged entered when reserved (a removal since kept it for it).
    seat.entered = seat.entered or seatReserved(S, player)
  end
  local refusal = seatRefusal(E, S, seating, player, seat)
  if refusal then return { refusal } end
  if seating.groupSize and seat.group == '' then awaitMoves(groupKeys(KEYS[22], KEYS[23], KEYS[24], KEYS[25])) end
end

local tiebreakers = {}
for value in string.gmatch(tiebreakerText, '[^,]+') do table.insert(tiebreakers, tonumber(value)) end
if #tiebreakers ~= E.columns then return { 5 } end

-- player.overtaken (docs/events.md part 5) compares the entry held before with the one after.
local notifyTop = tonumber(ARGV[20]) or 0
local before = notifyTop > 0 and entryOf(E, player) or nil

-- A latest or sum entry may fall: whether it stood among the first 100 (what live streams show,
-- docs/events.md part 6) is read before it moves. Best boards only climb: their new rank tells.
local wasTop = (rule == 'latest' or rule == 'sum') and (positionOf(E, player) or 100) < 100

local clock = serverClock()
local report = { score = tonumber(scoreText), text = scoreText, tiebreakers = tiebreakers, at = clock.ms }

-- Every counted or held report uses an attempt and holds the seat (an entered player's wait ends);
-- on a league, a player's first report of the season puts them in a group.
local function takeSeat(holdsEntry)
  seat.used, seat.entered = seat.used + 1, true
  if seating.groupSize and seat.group == '' then
    seat.group, seat.tier = joinGroup(groupKeys(KEYS[22], KEYS[23], KEYS[24], KEYS[25]), player, seating.groupSize)
  end
  writeSeat(S, player, seat, nextVersion(K, clock))
  -- A held score's player holds no entry: waiting keeps their seat (docs/review.md).
  if holdsEntry then redis.call('SREM', S.waiting, player) else redis.call('SADD', S.waiting, player) end
  if usesReservation then release(S, player, 1) end
  -- The player holds an entry now: a seat a batch reserved for them would count twice.
  redis.call('ZREM', S.reserved, player)
end

local function markDirty()
  -- NX keeps the time of the first change PostgreSQL has not seen, which is what lag measures.
  redis.call('ZADD', dirty, 'NX', clock.ms, player)
  return redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) and 1 or 0
end

-- A client report on a board with review rules (docs/review.md): it joins the player's pending
-- held score, or is held when the rules catch the entry it would make; either way it is answered
-- as if counted, and nobody else sees it. A shadow-banned player's is always held, joined to their
-- hidden entry as if it counted (part 6).
if ARGV[22] == '1' and (rules or shadowed) then
  local pending = parseHeld(redis.call('HGET', heldKey, player))
  local counted
  if shadowed then
    local stored = redis.call('HGET', KEYS[19], player)
    counted = stored and fromStoredForm(E, stored) or nil
  else
    counted = entryOf(E, player)
  end
  local base = pending and pending.entry or counted
  local after, amount
  if rule == 'sum' then
    amount = (pending and pending.amount or 0) + report.score
    local sum = (counted and counted.score or 0) + amount
    if sum ~= sum or sum == math.huge or sum == -math.huge then return { 3 } end
    after = { score = sum, text = exact(sum), tiebreakers = tiebreakers, at = report.at }
  elseif rule == 'best' and base and compareEntries(E, report, base) >= 0 then
    after = base
  else
    after = report
  end
  local reason = pending and pending.reason
  -- A report that changes nothing counted (a best score no better) is never held.
  local changes = not counted or rule ~= 'best' or compareEntries(E, after, counted) < 0
  if not reason and shadowed then
    reason = 'shadow'
  elseif not reason and rules and changes then
    local reachedMs = tonumber(redis.call('HGET', reachedKey, player) or '') or (counted and counted.at)
      or tonumber(redis.call('GET', KEYS[18]) or '0')
    reason = holdReason(E, rules, after, counted, reachedMs, clock.ms, rules.outlier and firstEntry(E))
  end
  if reason then
    if not E.earliest then after.at = nil end
    local h = pending or { us = string.format('%.0f', clock.us), version = 0, reason = reason,
                           heldAt = string.format('%.0f', clock.ms), previous = counted and (counted.text or exact(counted.score)) or '-' }
    h.version, h.entry, h.amount = h.version + 1, after, amount
    -- latest and sum keep each report's metadata; best only an improvement's.
    if after == report or rule ~= 'best' or not pending then h.metadata = metadataJson end
    local heldRecord = formatHeld(h)
    redis.call('HSET', heldKey, player, heldRecord)
    local needsJob = 0
    if seating then
      takeSeat(counted ~= nil)
      needsJob = markDirty()
    end
    local score, heldTiebreakers, at = entryFields(after)
    local changedShown = (not base or compareEntries(E, after, base) ~= 0) and 1 or 0
    -- A hidden entry is out of the ranking: nothing to set aside.
    local ranked = not shadowed and counted
    local rank = heldRank(E, player, after, ranked)
    local total = redis.call('ZCARD', K.scores) + (ranked and 0 or 1)
    local left = seating and attemptsLeft(seating, seat) or ''
    if fingerprint ~= '' then
      local answer = { fingerprint, score, changedShown, rank, total, tonumber(season), heldTiebreakers == '' and '-' or heldTiebreakers,
                       at == '' and '-' or at, left == '' and '-' or left }
      redis.call('SET', record, table.concat(answer, ' '), 'PX', ARGV[8])
    end
    return { score, changedShown, rank, total, needsJob, tonumber(season), heldTiebreakers, at, left, 0, '', heldRecord }
  end
end

local held, changed = applyScore(K, E, memberKey, player, report, rule, clock)
if not held then return { 3 } end
local needsJob = 0
-- A board judging gains remembers when each kept score was reached.
if changed and rules and rules.gain then redis.call('HSET', reachedKey, player, clock.ms) end
local entryMoved = changed or rule ~= 'best'
-- latest and sum keep each report's metadata, whatever the score did; best only an improvement's.
if entryMoved then
  if metadataJson == '' then
    redis.call('HDEL', metadata, player)
  else
    redis.call('HSET', metadata, player, metadataJson)
  end
  -- A latest or sum value may go back to an earlier one, and a whole entry cannot be compared by
  -- score alone: PostgreSQL orders those writes by version.
  if rule ~= 'best' or E.keyed then redis.call('HSET', versions, player, nextVersion(K, clock)) end
end
if seating then takeSeat(true) end
-- An approved score is the player's entry now: neither waiting nor a seat kept for a batch holds
-- their seat any more, or it would count twice (includes/seats). The hold goes only now that it
-- applied (a refusal above leaves it for its decision), leaving its held_us for a decision to be
-- recorded again (includes/review).
if approving then
  redis.call('SREM', KEYS[21], player)
  redis.call('ZREM', KEYS[27], player)
  redis.call('HDEL', heldKey, player)
  redis.call('HSET', heldKey, APPROVED .. player, ARGV[23])
end
if entryMoved or seating then needsJob = markDirty() end

local score, heldTiebreakers, at = entryFields(held)
local left = seating and attemptsLeft(seating, seat) or ''
local rank = rankOfEntry(E, player, held)
-- best_rank (docs/history.md part 4): the best rank the player's reports reached this season, taken
-- from each answer in its own step. A better one is persisted like the entry, so it is marked too
-- (on a best board a report that keeps the score may rank better than ever, once players above it
-- were banned or removed).
local total = redis.call('ZCARD', K.scores)
local best = bestRankOf(KEYS[29], player, total)
if not best or rank < rankOfBestRank(best) then
  setBestRank(KEYS[29], player, string.format('%d:%d', rank, clock.ms), total)
  redis.call('ZADD', dirty, 'NX', clock.ms, player)
  if needsJob == 0 and redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) then needsJob = 1 end
end
local overtaken = ''
if changed and rank <= notifyTop and (not before or entryAhead(E, held, before)) then
  overtaken = overtakenBy(E, player, held, before, notifyTop)
  -- Recorded in this very step, so no answered report loses its events and no refused one has any;
  -- the worker moves them to PostgreSQL (engine/events/overtaken-events.ts). The cap bounds what a
  -- worker long away leaves in Redis.
  if overtaken ~= '' then
    redis.call('XADD', KEYS[28], 'MAXLEN', '~', 10000, '*', 'season', season, 'by', player, 'score', score, 'players', overtaken)
  end
end
local reply = { score, changed and 1 or 0, rank, total, needsJob, tonumber(season), heldTiebreakers, at, left,
                (changed and wasTop) and 1 or 0, overtaken }
if fingerprint ~= '' then
  local answer = { fingerprint, score, reply[2], reply[3], reply[4], reply[6], heldTiebreakers == '' and '-' or heldTiebreakers, at == '' and '-' or at,
                   left == '' and '-' or left }
  redis.call('SET', record, table.concat(answer, ' '), 'PX', ARGV[8])
end
return reply
