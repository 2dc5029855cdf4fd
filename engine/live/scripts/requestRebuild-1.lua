--[[
  Asks for a rebuild walk from the start: 'lost' rebuilds the boards whose live state is gone,
  'all' merges every board back from PostgreSQL. A walk of every board asked for before and not
  finished stays one of every board: the request never narrows a walk.

  KEYS: 1 rebuildCursor ('<mode>' or '<mode>:<position>')
  ARGV: 1 'lost'|'all'
  Reply: the mode of the walk asked for
]]
local mode = ARGV[1]
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, 3) == 'all' then mode = 'all' end
redis.call('SET', KEYS[1], mode)
return mode
