--[[
  Reads the score, competition rank and metadata of each given member of a ranking; or, for the
  'hidden' view, the scores banned players hold out of the current season's ranking (unranked).

  KEYS: 1-6 seasonRanking (includes/season-ranking; for 'hidden', 1 is hidden)
  ARGV: 1 'desc'|'asc', 2 the season asked ('' for the current one), 3 'players'|'clans'|'hidden',
        then member ids
  Reply: { total, score ('' when none), rank (0 when none), metadata ('' for none), ... }, or -1
         when Redis does not hold the asked season; or the error LBMISSING or LBDUE
]]
-- @include "ranks"
-- @include "live-season"
-- @include "season-ranking"

local view = ARGV[3]
if view == 'hidden' then
  liveSeason(KEYS[2])
  local reply = { 0 }
  for i = 4, #ARGV do
    local score = redis.call('HGET', KEYS[1], ARGV[i])
    table.insert(reply, score or '')
    table.insert(reply, 0)
    table.insert(reply, '')
  end
  return reply
end

local key, metadataKey = seasonRanking(ARGV[2])
if not key then return -1 end
local metadata = metadataOf(metadataKey, view == 'players', ARGV, 4, 1)
local reply = { redis.call('ZCARD', key) }
for i = 4, #ARGV do
  local score = redis.call('ZSCORE', key, ARGV[i])
  if score then
    table.insert(reply, score)
    table.insert(reply, rankOf(key, score, ARGV[1]))
    table.insert(reply, metadata[i - 3])
  else
    table.insert(reply, '')
    table.insert(reply, 0)
    table.insert(reply, '')
  end
end
return reply
