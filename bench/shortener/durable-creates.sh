#!/usr/bin/env bash
# Durable creates (--durability full) against the in-process SQLite ceiling and against the same
# server with group commit off (--max-batch 1): server on core 0 (one event loop; its writer thread
# shares the core), wrk -t1 -c64 -d10s POST /api/links on core 1; the ceiling (bench
# SqliteBatchCeiling, 256-row transactions) on core 0 too. A B C A B C, ROUNDS rounds, medians.
#   bench/shortener/durable-creates.sh [ROUNDS]
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-durable-creates/
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java=(taskset -c 0 "$jdk/bin/java" @jvm.options -Xms1g -Xmx1g)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-durable-creates"
mkdir -p "$out"
port=18300
pid=
# The servers' stores and the ceiling's database go whatever happens.
trap '[ -n "$pid" ] && kill -TERM $pid 2>/dev/null; rm -rf "$out"/data-* "$out/ceiling"' EXIT
{
  echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"
  echo "wrk: -t1 -c64 -d10s --latency POST /api/links (bench/shortener/create.lua); server: taskset -c 0, 1 event loop"
  echo "ceiling: SqliteBatchCeiling, 256-row transactions, 10 s, taskset -c 0"
} >"$out/CLAIMS.txt"

serve() { # max-batch name
  rm -rf "$out/data-$2"
  "${java[@]}" -jar cli/target/hotpath.jar serve shortener --bind 127.0.0.1:$port --data "$out/data-$2" \
    --event-loops 1 --max-batch "$1" >"$out/$2.server.log" 2>&1 &
  pid=$!
  for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/ready" && break; sleep 0.05; done
  key=$(cat "$out/data-$2/api-key")
  taskset -c 1 wrk -t1 -c64 -d3s -s bench/shortener/create.lua "http://127.0.0.1:$port/api/links" -- "$key" >/dev/null
  taskset -c 1 wrk -t1 -c64 -d10s --latency -s bench/shortener/create.lua "http://127.0.0.1:$port/api/links" -- "$key" \
    >"$out/$2.round$round.txt"
  kill -TERM $pid; wait $pid 2>/dev/null || true
  rm -rf "$out/data-$2"
  rps=$(awk '/Requests\/sec/ {print $2}' "$out/$2.round$round.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$out/$2.round$round.txt")
  bad=$(awk '/Non-2xx/ {print $5}' "$out/$2.round$round.txt"); bad=${bad:-0}
  echo "round $round $2 $rps p99=$p99 non2xx3xx=$bad" | tee -a "$out/summary.txt"
}

for round in $(seq "$rounds"); do
  serve 256 grouped
  serve 1 single
  "${java[@]}" -cp bench/target/benchmarks.jar dev.hotpath.bench.store.SqliteBatchCeiling "$out/ceiling" 256 10 \
    >"$out/ceiling.round$round.txt"
  rows=$(awk '{print $(NF-1)}' "$out/ceiling.round$round.txt")
  echo "round $round ceiling $rows" | tee -a "$out/summary.txt"
  rm -rf "$out/ceiling"
done
median() { grep "^round [0-9]* $1 " "$out/summary.txt" | awk '{print $4}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
g=$(median grouped); s=$(median single); c=$(median ceiling)
{
  echo "grouped (max-batch 256) median creates/s $g"
  echo "single (max-batch 1) median creates/s $s"
  echo "ceiling (256-row transactions) median rows/s $c"
  echo "ratio grouped/ceiling $(echo "scale=3; $g / $c" | bc)"
  echo "ratio grouped/single $(echo "scale=2; $g / $s" | bc)"
} | tee -a "$out/summary.txt"
echo "raw output: $out"
