--[[
  Puts persisted seats back into a board being rebuilt (docs/competitions.md, part 3), after its
  entries: a field Redis already holds stays (it is newer: PostgreSQL follows Redis), and an entered
  player holding no entry waits for a first report again, and a league's players go back into
  their groups. Seats are already persisted, so nothing is marked.

  KEYS: 1 season, 2 scores, 3 sortKeys, 4 layout, 5 hidden, 6 seats, 7 waiting, 8 groups,
        9 groupIndex, 10 groupRoom
  ARGV: 1 the season the seats belong to, 2 the league's group size ('' for none), then player id,
        seat (includes/seats) for each player
  Reply: number of seats set, or -1 when the season has moved on (the seats belong to the ended one)
]]
-- @include "clock"
-- @include "entries"
-- @include "live-season"
-- @include "seats"

local value = redis.call('GET', KEYS[1])
if value and parseSeason(value) ~= ARGV[1] then return -1 end
local E = entriesOf(KEYS[2], KEYS[3], storedLayout(KEYS[4]))
local S = seatKeys(KEYS[5], KEYS[6], KEYS[7])
local G = groupKeys(KEYS[8], KEYS[9], KEYS[10], '')
local size = tonumber(ARGV[2])
local set = 0
for i = 3, #ARGV, 2 do
  local player = ARGV[i]
  if redis.call('HSETNX', S.seats, player, ARGV[i + 1]) == 1 then
    set = set + 1
    local seat = seatRecord(S, player)
    if seat.entered and not holdsEntry(E, S, player) then redis.call('SADD', S.waiting, player) end
    if seat.group ~= '' and size then
      -- Back into the group it held, with its tier; the group numbers go on after the highest.
      local group, at = seat.group, tonumber(seat.tier) * TIER_SPAN + tonumber(seat.group)
      local count = tonumber(string.match(redis.call('HGET', G.groups, group) or ':0', ':(%d+)$')) + 1
      redis.call('HSET', G.groups, group, seat.tier .. ':' .. count)
      local members = redis.call('HGET', G.groups, 'm' .. group)
      redis.call('HSET', G.groups, 'm' .. group, members and (members .. ' ' .. player) or player)
      redis.call('ZADD', G.index, at, group)
      if count < size then redis.call('ZADD', G.room, at, group) else redis.call('ZREM', G.room, group) end
      if tonumber(group) > tonumber(redis.call('HGET', G.groups, 'n') or '0') then redis.call('HSET', G.groups, 'n', group) end
    end
  end
end
return set
