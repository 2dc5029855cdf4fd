--[[
  Marks a board's live state whole: the last step of its preparation (creation, rebuild), once its
  bans, memberships, scores and scheduled resets are in place. From then on the board answers
  (includes/live-season).

  KEYS: 1 season, 2 seasonStarted, 3 scheduledResets
  ARGV: 1 the current season as PostgreSQL knows it, 2 when it started (ms)
  Reply: 1 when this marked the board, 0 when it already was
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local due = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
redis.call('SET', KEYS[1], ARGV[1] .. (due and (':' .. due) or ''))
redis.call('SET', KEYS[2], ARGV[2], 'NX')
return 1
