#!/usr/bin/env bash
# GET /{code} of the shortener over a store of N links against GET /ping of the users app, both on the
# hotpath engine: server on core 0 with one event loop, wrk -t1 -c64 -d10s on core 1, A B A B, ROUNDS
# rounds, medians. Both sides are driven by the same Lua script (a path drawn at random per request),
# so wrk does the same work for each. Also records the shortener's start-up time with N links and its
# heap after a full GC.
#   bench/shortener/redirect-vs-ping.sh [N] [ROUNDS] [DEPTH] [random|fixed]
# random (default): each request draws a code from the N seeded (wrk's Lua does per-request work over a
# table of N distinct strings, which slows wrk itself: with ping it draws from N copies of one string).
# fixed: every request asks for the same code (the first seeded) and /ping through bench/wrk/pipeline.lua,
# so wrk does identical work on both sides; the store still holds N links.
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-redirect-vs-ping-d<DEPTH>/
set -euo pipefail
cd "$(dirname "$0")/../.."
links=${1:-1000000}
rounds=${2:-3}
depth=${3:-1}
paths=${4:-random}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java=(taskset -c 0 "$jdk/bin/java" @jvm.options -Xms2g -Xmx2g)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-redirect-vs-ping-d$depth-$paths"
mkdir -p "$out"
data="$out/data"
port=18200
pid=
# The store and the generated path lists (codes.txt, ping.txt: tens of MB) go whatever happens.
trap '[ -n "$pid" ] && kill -TERM $pid 2>/dev/null; rm -rf "$data" "$out/codes.txt" "$out/ping.txt"' EXIT

wait_ready() { # path
  for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$port$1" && return 0; sleep 0.05; done
  echo "server did not come up" >&2; return 1
}

{
  echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"; echo "links: $links"
  echo "wrk: -t1 -c64 -d10s depth=$depth, paths=$paths; server: taskset -c 0, 1 event loop, -Xmx2g"
} >"$out/CLAIMS.txt"

# Seed through the API (a first, unpinned run of the server), then keep the codes.
"$jdk/bin/java" @jvm.options -Xmx2g -jar cli/target/hotpath.jar \
  serve shortener --bind 127.0.0.1:$port --data "$data" --max-links $((links + 10)) >"$out/seed.server.log" 2>&1 &
pid=$!
wait_ready /health
python3 bench/shortener/seed.py "http://127.0.0.1:$port" "$(cat "$data/api-key")" "$links" "$out/codes.txt" | tee -a "$out/summary.txt"
kill -TERM $pid; wait $pid || true
# As many "ping" lines as codes: wrk draws from a table of the same size on both sides.
sed 's/.*/ping/' "$out/codes.txt" >"$out/ping.txt"

start_server() { # name
  case "$1" in
    redirect) "${java[@]}" -jar cli/target/hotpath.jar serve shortener --bind 127.0.0.1:$port --data "$data" \
                --max-links $((links + 10)) --event-loops 1 >"$out/$1.server.log" 2>&1 & ;;
    ping)     "${java[@]}" -jar cli/target/hotpath.jar serve users --bind 127.0.0.1:$port --event-loops 1 \
                >"$out/$1.server.log" 2>&1 & ;;
  esac
  echo $!
}

paths_of() { [ "$1" = redirect ] && echo "$out/codes.txt" || echo "$out/ping.txt"; }

load() { # name duration [extra wrk args] -> wrk output
  local name=$1 duration=$2; shift 2
  if [ "$paths" = fixed ]; then
    local path; path=$([ "$name" = redirect ] && head -n 1 "$out/codes.txt" || echo ping)
    taskset -c 1 wrk -t1 -c64 -d"$duration" "$@" -s bench/wrk/pipeline.lua "http://127.0.0.1:$port/$path" -- "$depth"
  else
    taskset -c 1 wrk -t1 -c64 -d"$duration" "$@" -s bench/shortener/random-path.lua "http://127.0.0.1:$port" -- "$(paths_of "$name")" "$depth"
  fi
}

for round in $(seq "$rounds"); do
  for name in redirect ping; do
    t0=$(date +%s.%N)
    pid=$(start_server $name)
    wait_ready /health 2>/dev/null || wait_ready /ping
    t1=$(date +%s.%N)
    [ "$name" = redirect ] && echo "round $round start-up with $links links: $(echo "$t1 - $t0" | bc) s" >>"$out/startup.txt"
    load $name 5s >/dev/null
    before=$(awk '{print $14 + $15}' /proc/$pid/stat)
    load $name 10s --latency >"$out/$name.round$round.txt"
    after=$(awk '{print $14 + $15}' /proc/$pid/stat)
    if [ "$name" = redirect ] && [ "$round" = 1 ]; then
      "$jdk/bin/jcmd" $pid GC.run >/dev/null; "$jdk/bin/jcmd" $pid GC.heap_info >"$out/redirect.heap.txt"
      grep VmRSS /proc/$pid/status >>"$out/redirect.heap.txt"
    fi
    kill -TERM $pid; wait $pid 2>/dev/null || true
    rps=$(awk '/Requests\/sec/ {print $2}' "$out/$name.round$round.txt")
    total=$(awk '/requests in/ {print $1}' "$out/$name.round$round.txt")
    bad=$(awk '/Non-2xx/ {print $5}' "$out/$name.round$round.txt"); bad=${bad:-0}
    cpu_us=$(echo "scale=3; ($after - $before) * 1000000 / $(getconf CLK_TCK) / $total" | bc)
    echo "round $round $name $rps $cpu_us non2xx3xx=$bad" | tee -a "$out/summary.txt"
  done
done
median() { grep "^round [0-9]* $1 " "$out/summary.txt" | awk -v c="$2" '{print $c}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
a=$(median redirect 4); b=$(median ping 4)
{
  echo "redirect median rps $a, CPU us/request $(median redirect 5)"
  echo "ping median rps $b, CPU us/request $(median ping 5)"
  echo "ratio redirect/ping rps $(echo "scale=3; $a / $b" | bc)"
} | tee -a "$out/summary.txt"
cat "$out/startup.txt"
echo "raw output: $out"
