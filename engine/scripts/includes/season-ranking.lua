-- The zset that holds the asked season of a ranking, for the read scripts, whose first four keys
-- are: 1 the live ranking, 2 the season number, 3 the asked season's ended ranking, 4 archives.
-- asked '' is the current season. An ended season is readable here until the worker has archived
-- it (then PostgreSQL has it); nil when Redis holds no such season.
local function seasonRanking(asked, fallbackSeason)
  if asked == '' then return KEYS[1] end
  local current = redis.call('GET', KEYS[2]) or fallbackSeason
  if asked == current then return KEYS[1] end
  if redis.call('HEXISTS', KEYS[4], asked) == 1 then return KEYS[3] end
  return nil
end
