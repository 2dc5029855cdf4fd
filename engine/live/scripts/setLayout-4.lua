--[[
  Sets how a board's entries are laid out (includes/entries): '' for plain, else '<tie><order><one
  direction per tiebreaker>'. Only a board holding no entry (live, hidden by a ban, or in an ended
  season awaiting its archive) changes layout, so no entry is ever read in a layout it was not
  written in. A board's preparation sets it first; a change of its tie settings sets it before
  PostgreSQL takes them.

  KEYS: 1 layout, 2 scores, 3 hidden, 4 endedSeasons
  ARGV: 1 the layout
  Reply: 1 when the board's layout is now the one asked for, 0 when it holds entries in another
]]
local stored = redis.call('GET', KEYS[1]) or ''
if stored == ARGV[1] then return 1 end
if redis.call('ZCARD', KEYS[2]) + redis.call('HLEN', KEYS[3]) + redis.call('HLEN', KEYS[4]) > 0 then return 0 end
if ARGV[1] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[1])
end
return 1
