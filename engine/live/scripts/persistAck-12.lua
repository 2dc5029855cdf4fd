--[[
  Clears the persistence marks of values now in PostgreSQL. A mark whose value changed since the
  claim stays, so the change arriving during the write is persisted by the next round. A clan's
  version goes with its mark: the board's version clock keeps the next one above it.

  A season that ended since the claim took its marks with it (its archive holds the values): the
  marks now present are the new season's, and none of them is cleared.

  An entry is cleared when both its score (ranked or hidden by a ban; '' when removed) and its
  version are still the claimed ones: a latest or sum entry's version changes with every report (its
  value may come back to the claimed one with other metadata), and so does every change of an entry
  on a keyed board (includes/entries); a plain best entry's score changes with every improvement
  (which brings its metadata), and a removal gives the entry a new version. Its seat, on boards
  with entry rules, must be the claimed one too (a seat's value carries its own version), and so
  must its best rank (a report that ranked better since wrote a new one).

  KEYS: 1 dirty, 2 scores, 3 dirtyClans, 4 clanVersions, 5 queued, 6 season, 7 versions, 8 hidden,
        9 sortKeys, 10 layout, 11 seats, 12 bestRanks
  ARGV: 1 the season of the claim, 2 number of players n, then n player/score/version/seat/best rank
        quintuples (version '' when the entry has none, seat and best rank '' for none), then
        clan/version pairs
  Reply: number of marks left; 0 also releases the queued flag, so the next change queues a new job
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "best-ranks"

local E = entriesOf(KEYS[2], KEYS[9], storedLayout(KEYS[10]))
local n = tonumber(ARGV[2])
local last = 2 + 5 * n
local entries = redis.call('ZCARD', KEYS[2])
local season = redis.call('GET', KEYS[6])
if (season and parseSeason(season) or '') ~= ARGV[1] then
  return redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[3]) + 1
end
for i = 3, last, 5 do
  local player, version = ARGV[i], ARGV[i + 2]
  local entry = entryOf(E, player)
  if not entry then
    local stored = redis.call('HGET', KEYS[8], player)
    entry = stored and fromStoredForm(E, stored)
  end
  local held = entry and entryFields(entry) or ''
  if held == ARGV[i + 1] and (redis.call('HGET', KEYS[7], player) or '') == version
      and (redis.call('HGET', KEYS[11], player) or '') == ARGV[i + 3]
      and (bestRankOf(KEYS[12], player, entries) or '') == ARGV[i + 4] then
    redis.call('ZREM', KEYS[1], player)
    if version ~= '' then redis.call('HDEL', KEYS[7], player) end
  end
end
for i = last + 1, #ARGV, 2 do
  if (redis.call('HGET', KEYS[4], ARGV[i]) or '0') == ARGV[i + 1] then
    redis.call('ZREM', KEYS[3], ARGV[i])
    redis.call('HDEL', KEYS[4], ARGV[i])
  end
end
local left = redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[3])
if left == 0 then
  redis.call('DEL', KEYS[5])
end
return left
