--[[
  Records one reported score atomically, by the board's rule, and answers with the rank it gives.
  With an Idempotency-Key, the answer is remembered in the same step, so a retried request is
  answered again without being applied again, and no crash can fall between the two.

  KEYS: 1-7 clanKeys (includes/clan-totals), 8 dirty, 9 queued, 10 member (the player's member key),
        11 season, 12 metadata, 13 versions, 14 retryRecord (the request's record on this board),
        15 banned
  ARGV: 1 player id, 2 score, 3 'desc'|'asc', 4 queued-flag lifetime (ms), 5 the rule:
        'best'|'latest'|'sum', 6 the metadata as compact JSON ('' for none), 7 the request's
        fingerprint ('' without an Idempotency-Key), 8 how long the record lives (ms)
  Reply: { score held, changed (0|1), rank, total, needs a persistence job (0|1), season } (for a
         request answered before: that answer, needing no job); or { reason } when nothing was
         applied: 2 the key came with another request, 3 the sum would not be a finite number,
         4 the player is banned; or the error LBMISSING or LBDUE (includes/live-season)
]]
-- @include "clock"
-- @include "clan-totals"
-- @include "apply-score"
-- @include "ranks"
-- @include "live-season"

local K = clanKeys()
local dirty, queued, memberKey, seasonKey, metadata, versions, record = KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12], KEYS[13], KEYS[14]
local player, order, rule, fingerprint = ARGV[1], ARGV[3], ARGV[5], ARGV[7]

-- The season is read in the same step as the score is applied, so a reset (which moves the live
-- keys aside and bumps this number in one step of its own) falls wholly before or after this report;
-- a report after the scheduled reset waits for it (LBDUE), whoever has yet to carry it out.
local season = liveSeason(seasonKey)

-- Checked in the same step as the score would be applied: a ban (moderateEntry) falls wholly before
-- or after this report, so no report of a banned player ever lands. Before the Idempotency-Key: a
-- retry after the ban is refused too.
if redis.call('SISMEMBER', KEYS[15], player) == 1 then return { 4 } end

if fingerprint ~= '' then
  local first = redis.call('GET', record)
  if first then
    if string.sub(first, 1, #fingerprint) ~= fingerprint then return { 2 } end
    local score, changed, rank, total, season = string.match(first, ' (%S+) (%d) (%d+) (%d+) (%d+)$')
    return { score, tonumber(changed), tonumber(rank), tonumber(total), 0, tonumber(season) }
  end
end

local clock = serverClock()
local held, changed = applyScore(K, memberKey, player, ARGV[2], rule, order, clock)
if not held then return { 3 } end
local needsJob = 0
-- latest and sum keep each report's metadata, whatever the score did; best only an improvement's.
if changed or rule ~= 'best' then
  if ARGV[6] == '' then
    redis.call('HDEL', metadata, player)
  else
    redis.call('HSET', metadata, player, ARGV[6])
  end
  -- A latest or sum value may go back to an earlier one: PostgreSQL orders its writes by version.
  if rule ~= 'best' then redis.call('HSET', versions, player, nextVersion(K, clock)) end
  -- NX keeps the time of the first change PostgreSQL has not seen, which is what lag measures.
  redis.call('ZADD', dirty, 'NX', clock.ms, player)
  if redis.call('SET', queued, '1', 'NX', 'PX', ARGV[4]) then
    needsJob = 1
  end
end

local reply = { held, changed and 1 or 0, rankOf(K.scores, held, order), redis.call('ZCARD', K.scores), needsJob, tonumber(season) }
if fingerprint ~= '' then
  local answer = { fingerprint, held, reply[2], reply[3], reply[4], reply[6] }
  redis.call('SET', record, table.concat(answer, ' '), 'PX', ARGV[8])
end
return reply
