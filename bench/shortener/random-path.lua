-- wrk script: GET a path drawn uniformly from PATHS_FILE (one path per line, without the leading /),
-- DEPTH requests per write. The same script drives both sides of a comparison (codes vs "ping"), so wrk
-- does the same work per request for each.
-- Usage: wrk ... -s bench/shortener/random-path.lua URL -- PATHS_FILE DEPTH
local paths = {}
local depth = 1

init = function(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = "/" .. line
  end
  depth = tonumber(args[2] or "1")
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end

request = function()
  if depth == 1 then
    return wrk.format("GET", paths[math.random(#paths)])
  end
  local r = {}
  for i = 1, depth do
    r[i] = wrk.format("GET", paths[math.random(#paths)])
  end
  return table.concat(r)
end
