-- wrk script: send 16 GET requests in one write (16-deep HTTP/1.1 pipelining).
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/pipeline.lua http://127.0.0.1:8080/ping -- 16
local depth = 16
init = function(args)
  if #args > 0 then depth = tonumber(args[1]) end
  local r = {}
  for i = 1, depth do
    r[i] = wrk.format(nil, nil)
  end
  req = table.concat(r)
end

request = function()
  return req
end
