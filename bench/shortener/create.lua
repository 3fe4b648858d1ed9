-- wrk script: durable creates, the same small JSON body on every request (URLs need not be unique).
-- wrk itself reports any answer that is not 2xx or 3xx ("Non-2xx or 3xx responses").
-- Usage: wrk ... -s bench/shortener/create.lua URL/api/links -- KEY
init = function(args)
  wrk.method = "POST"
  wrk.body = '{"url":"https://example.com/articles/2026/11/30/a-typical-slug-of-moderate-length"}'
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. args[1]
end
