-- An ended season waits in the board's endedSeasons hash until the worker archives it: season ->
-- '<started ms>:<ended ms>', with MODERATED appended once a ban, unban or erasure after its end
-- changed what its reads show (markModerated-5.lua). Its ranking in Redis is then no longer what
-- reads should show: they answer 503 until the archive (docs/architecture.md, Seasons).
local MODERATED = ':moderated'

local function isModerated(times)
  return string.sub(times, -#MODERATED) == MODERATED
end
