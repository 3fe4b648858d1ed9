-- The social API's closed-loop realistic mix for wrk: each connection loops GET /feed, GET /posts/<id>
-- (a random post of the seed's POSTS, default 500,000: hotpath social seed's), a like of that post with probability 0.15, a new post with
-- probability 0.02. Run with as many threads as connections (-t64 -c64): each thread is one connection
-- and one Lua state, and keeps one token of TOKENS (a file of JWTs, one per line).
-- Prints one line for bench/social/wrk-ab.sh:
--   RESULT requests=N seconds=S p50_us=A p99_us=B non2xx=C errors=D
local tokens = {}
local threads = 0
local posts = tonumber(os.getenv("POSTS") or "500000")

function setup(thread)
  if #tokens == 0 then
    for line in io.lines(os.getenv("TOKENS")) do
      if line ~= "" then tokens[#tokens + 1] = line end
    end
  end
  threads = threads + 1
  thread:set("number", threads)
  thread:set("token", tokens[(threads - 1) % #tokens + 1])
end

local step, post, loops, feed, auth, json

function init(args)
  math.randomseed(os.time() + number * 7919)
  step, loops = "feed", 0
  feed = wrk.format("GET", "/feed")
  auth = { ["Authorization"] = "Bearer " .. token }
  json = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
end

function request()
  while true do
    if step == "feed" then
      step = "post"
      return feed
    elseif step == "post" then
      post = math.random(1, posts)
      step = "like"
      return wrk.format("GET", "/posts/" .. post)
    elseif step == "like" then
      step = "create"
      if math.random() < 0.15 then
        return wrk.format("POST", "/posts/" .. post .. "/like", auth)
      end
    else
      step = "feed"
      loops = loops + 1
      if math.random() < 0.02 then
        return wrk.format("POST", "/posts", json,
          string.format('{"body":"wrk connection %d, loop %d"}', number, loops))
      end
    end
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d seconds=%.3f p50_us=%d p99_us=%d non2xx=%d errors=%d\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
