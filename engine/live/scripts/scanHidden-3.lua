--[[
  Reads a page of the entries banned players held when a season ended (its hidden entries), for the
  archive, which ranks them among everyone and stores them hidden. One HSCAN step: a player may come
  twice across pages, and the caller takes each once.

  KEYS: 1 endedHidden, 2 endedMetadata, 3 layout
  ARGV: 1 the HSCAN cursor ('0' to start), 2 how many fields to look at
  Reply: { next cursor ('0' at the end), player, score, metadata ('' for none), tiebreakers,
         achieved at, ... } (includes/entries entryFields)
]]
-- @include "clock"
-- @include "entries"

local E = entriesOf(KEYS[1], nil, storedLayout(KEYS[3]))
local scanned = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', tonumber(ARGV[2]))
local reply = { scanned[1] }
local flat = scanned[2]
for i = 1, #flat, 2 do
  local score, tiebreakers, at = entryFields(fromStoredForm(E, flat[i + 1]))
  local metadata = redis.call('HGET', KEYS[2], flat[i]) or ''
  for _, field in ipairs({ flat[i], score, metadata, tiebreakers, at }) do table.insert(reply, field) end
end
return reply
