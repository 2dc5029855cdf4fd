--[[
  Hands the persistence worker the oldest changes of one leaderboard, with their current values.
  Marks stay until persistAck confirms them, so a worker that dies mid-write loses nothing.

  KEYS: 1 dirty, 2 scores, 3 dirtyClans, 4 clans, 5 clanVersions, 6 queued, 7 season, 8 metadata,
        9 versions, 10 hidden, 11 sortKeys, 12 layout, 13 seats (includes/seats), 14 bestRanks

  A banned player's entry is persisted from where the ban keeps it (hidden): a ban deletes nothing.
  A player with neither comes with score '' (removed: PostgreSQL deletes up to the version).
  ARGV: 1 maximum number of players, 2 maximum number of clans, 3 queued-flag lifetime (ms)
  Reply: { { player, score or '', marked at (ms), version ('' on plain best boards unless removed
             since the last write), metadata or '', tiebreakers (comma-separated, '' for none),
             achieved at (ms, '' for none), seat ('<attempts used>:<entered>:<version>', '' for
             none), best rank ('<rank>:<ms>', '' for none), ... },
           { clan, total or '', version, marked at (ms), ... },
           the season they belong to ('' while Redis has no number: the board's first) }
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "best-ranks"

-- A live job keeps the flag alive; if its worker dies, the flag expires and the sweeper re-queues.
redis.call('PEXPIRE', KEYS[6], ARGV[3])

local E = entriesOf(KEYS[2], KEYS[11], storedLayout(KEYS[12]))
local players = {}
local entries = redis.call('ZCARD', KEYS[2])
local marked = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #marked, 2 do
  local player = marked[i]
  local entry = entryOf(E, player)
  if not entry then
    local stored = redis.call('HGET', KEYS[10], player)
    entry = stored and fromStoredForm(E, stored)
  end
  local score, tiebreakers, at = '', '', ''
  if entry then score, tiebreakers, at = entryFields(entry) end
  for _, field in ipairs({ player, score, marked[i + 1], redis.call('HGET', KEYS[9], player) or '', redis.call('HGET', KEYS[8], player) or '', tiebreakers, at,
                                 redis.call('HGET', KEYS[13], player) or '', bestRankOf(KEYS[14], player, entries) or '' }) do
    table.insert(players, field)
  end
end

local clans = {}
marked = redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
for i = 1, #marked, 2 do
  table.insert(clans, marked[i])
  table.insert(clans, redis.call('ZSCORE', KEYS[4], marked[i]) or '')
  table.insert(clans, redis.call('HGET', KEYS[5], marked[i]) or '0')
  table.insert(clans, marked[i + 1])
end
local season = redis.call('GET', KEYS[7])
return { players, clans, season and parseSeason(season) or '' }
