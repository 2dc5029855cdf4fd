--[[
  The changes of one board not yet in PostgreSQL, in one call instead of three (the pending count
  and the sweep walk every indexed board, engine/persistence/marks.ts): its marked players, its
  marked clan totals, and its ended seasons not yet archived (one change each).

  KEYS: 1 dirty, 2 dirtyClans, 3 endedSeasons
  ARGV: none
  Reply: the count
]]
return redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) + redis.call('HLEN', KEYS[3])
