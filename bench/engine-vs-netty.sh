#!/usr/bin/env bash
# Whole-server comparison of the engine (users app, GET /ping) against the plain Netty HttpServerCodec
# peer in bench/, per the performance method: server pinned to core 0 with one event loop, wrk pinned
# to core 1, A B A B alternation, ROUNDS rounds, medians. Every run is bounded (wrk -d).
#   bench/engine-vs-netty.sh [ROUNDS] [DEPTH]    DEPTH 1 = no pipelining, 16 = 16 requests per write
# Raw output: results/<UTC stamp>-engine-vs-netty-d<DEPTH>/
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
depth=${2:-1}
java=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
jvm_flags=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -Xms1g -Xmx1g)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-engine-vs-netty-d$depth"
mkdir -p "$out"
port=18080

start_server() { # name -> pid on stdout
  case "$1" in
    hotpath) taskset -c 0 "$java" "${jvm_flags[@]}" -jar cli/target/hotpath.jar serve users \
               --bind 127.0.0.1:$port --event-loops 1 >"$out/$1.server.log" 2>&1 & ;;
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

run_wrk() { # duration -> wrk output
  if [ "$depth" -gt 1 ]; then
    taskset -c 1 wrk -t1 -c64 -d"$1" -s bench/wrk/pipeline.lua "http://127.0.0.1:$port/ping" -- "$depth"
  else
    taskset -c 1 wrk -t1 -c64 -d"$1" "http://127.0.0.1:$port/ping"
  fi
}

{
  echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"; echo "java: $("$java" -version 2>&1 | head -1)"
  echo "wrk: -t1 -c64 -d10s depth=$depth; server: taskset -c 0, 1 event loop; wrk: taskset -c 1"
} >"$out/CLAIMS.txt"

for round in $(seq "$rounds"); do
  for name in hotpath netty; do
    pid=$(start_server $name)
    wait_ready
    run_wrk 5s >/dev/null                       # warm-up (JIT), not recorded
    run_wrk 10s >"$out/$name.round$round.txt"
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    rps=$(awk '/Requests\/sec/ {print $2}' "$out/$name.round$round.txt")
    echo "round $round $name $rps" | tee -a "$out/summary.txt"
  done
done

median() { grep " $1 " "$out/summary.txt" | awk '{print $4}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
a=$(median hotpath); b=$(median netty)
{ echo "hotpath median $a"; echo "netty median $b"; echo "ratio hotpath/netty $(echo "scale=3; $a / $b" | bc)"; } | tee -a "$out/summary.txt"
echo "raw output: $out"
