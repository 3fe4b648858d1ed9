#!/usr/bin/env bash
# Whole-server comparison of the engine (users app, GET /ping) against the plain Netty HttpServerCodec
# peer in bench/, per the performance method: server pinned to core 0 with one event loop, wrk pinned
# to core 1, A B A B alternation, ROUNDS rounds, medians. Every run is bounded (wrk -d).
#   bench/engine-vs-netty.sh [ROUNDS] [DEPTH]    DEPTH 1 = no pipelining, 16 = 16 requests per write
# SERVERS="hotpath netty raw" adds the raw-socket ceiling (bench RawSocketServer) to the rotation.
# Each round records: requests/s; the server's CPU time per request (utime+stime from /proc over the
# measured run), which the noisy shared machine disturbs far less than throughput; and the share of
# its core each side kept busy (server, then wrk via /usr/bin/time): a side near 1.00 is the bottleneck.
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-engine-vs-netty-d<DEPTH>/
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
depth=${2:-1}
java=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
# jvm.options: the flags the launcher gives every JVM (Netty's and SQLite's access, JIT flags).
jvm_flags=(@jvm.options -Xms1g -Xmx1g)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-engine-vs-netty-d$depth"
mkdir -p "$out"
port=18080

start_server() { # name -> pid on stdout
  case "$1" in
    hotpath) taskset -c 0 "$java" "${jvm_flags[@]}" -jar cli/target/hotpath.jar serve users \
               --bind 127.0.0.1:$port --event-loops 1 >"$out/$1.server.log" 2>&1 & ;;
    raw)     taskset -c 0 "$java" "${jvm_flags[@]}" -cp bench/target/benchmarks.jar \
               dev.hotpath.bench.RawSocketServer $port 1 >"$out/$1.server.log" 2>&1 & ;;
    netty)   taskset -c 0 "$java" "${jvm_flags[@]}" -cp bench/target/benchmarks.jar \
               dev.hotpath.bench.NettyBaselineServer $port 1 >"$out/$1.server.log" 2>&1 & ;;
  esac
  echo $!
}

wait_ready() {
  for _ in $(seq 200); do
    curl -sf "http://127.0.0.1:$port/ping" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  echo "server did not come up" >&2
  return 1
}

cpu_ticks() { # utime + stime of a process, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}

run_wrk() { # duration [time-file] -> wrk output; with a time file, wrk's own CPU use is recorded there
  local timer=()
  [ -n "${2:-}" ] && timer=(/usr/bin/time -f "%e %U %S" -o "$2")
  if [ "$depth" -gt 1 ]; then
    taskset -c 1 "${timer[@]}" wrk -t1 -c64 -d"$1" -s bench/wrk/pipeline.lua "http://127.0.0.1:$port/ping" -- "$depth"
  else
    taskset -c 1 "${timer[@]}" wrk -t1 -c64 -d"$1" "http://127.0.0.1:$port/ping"
  fi
}

{
  echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"; echo "java: $("$java" -version 2>&1 | head -1)"
  echo "wrk: -t1 -c64 -d10s depth=$depth; server: taskset -c 0, 1 event loop; wrk: taskset -c 1"
  echo "jvm.options: $(grep -v '^#' jvm.options | xargs)"
} >"$out/CLAIMS.txt"

for round in $(seq "$rounds"); do
  for name in ${SERVERS:-hotpath netty}; do
    pid=$(start_server $name)
    wait_ready
    run_wrk 5s >/dev/null                       # warm-up (JIT), not recorded
    before=$(cpu_ticks "$pid")
    run_wrk 10s "$out/$name.round$round.wrk-time" >"$out/$name.round$round.txt"
    after=$(cpu_ticks "$pid")
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    rps=$(awk '/Requests\/sec/ {print $2}' "$out/$name.round$round.txt")
    total=$(awk '/requests in/ {print $1}' "$out/$name.round$round.txt")
    cpu_us=$(echo "scale=3; ($after - $before) * 1000000 / $(getconf CLK_TCK) / $total" | bc)
    server_busy=$(echo "scale=2; ($after - $before) / $(getconf CLK_TCK) / 10" | bc)
    wrk_busy=$(awk '{printf "%.2f", ($2 + $3) / $1}' "$out/$name.round$round.wrk-time")
    echo "round $round $name $rps $cpu_us $server_busy $wrk_busy" | tee -a "$out/summary.txt"
  done
done

median() { # name column -> median of that column over the rounds
  grep "^round [0-9]* $1 " "$out/summary.txt" | awk -v c="$2" '{print $c}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
a=$(median hotpath 4); b=$(median netty 4); ac=$(median hotpath 5); bc_=$(median netty 5)
{
  echo "hotpath median rps $a, server CPU us/request $ac"
  echo "netty median rps $b, server CPU us/request $bc_"
  echo "ratio hotpath/netty rps $(echo "scale=3; $a / $b" | bc)"
  echo "ratio netty/hotpath CPU per request $(echo "scale=3; $bc_ / $ac" | bc)"
} | tee -a "$out/summary.txt"
if grep -q " raw " "$out/summary.txt"; then
  r=$(median raw 4)
  { echo "raw median rps $r, server CPU us/request $(median raw 5)"; echo "ratio hotpath/raw rps $(echo "scale=3; $a / $r" | bc)"; } | tee -a "$out/summary.txt"
fi
echo "raw output: $out"
