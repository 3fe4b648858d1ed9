#!/usr/bin/env bash
# Server CPU per request of GET /{code} against GET /health on ONE shortener process (same engine, same
# JIT, same heap): a 302 from a store of N links versus a constant 200 on an exact route. Server on
# core 0 with one event loop, wrk -t1 -c64 on core 1 with one static path per run (bench/wrk/pipeline.lua,
# DEPTH requests per write), 3 s warm-up then 10 s measured, alternating health and redirect ROUNDS
# times; CPU from /proc/<pid>/stat over each measured run. CPU per request is the fair comparison when
# wrk, not the server, is the limit (at 16-deep it is: see docs/BENCHMARKS.md).
#   bench/shortener/redirect-cpu.sh [N] [ROUNDS] [DEPTH]
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-redirect-cpu-d<DEPTH>/
set -euo pipefail
cd "$(dirname "$0")/../.."
links=${1:-1000000}
rounds=${2:-3}
depth=${3:-16}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
out="results/$(date -u +%Y%m%dT%H%M%SZ)-redirect-cpu-d$depth"
data="$out/data"
port=18210
mkdir -p "$out"
echo "commit: $(git rev-parse HEAD); date: $(date -u +%FT%TZ); links: $links; depth: $depth" >"$out/CLAIMS.txt"
taskset -c 0 "$jdk/bin/java" @jvm.options -Xms2g -Xmx2g \
  -jar cli/target/hotpath.jar serve shortener --bind 127.0.0.1:$port --data "$data" --event-loops 1 \
  --max-links "$((links > 1000000 ? links : 1000000))" >"$out/server.log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; rm -rf "$data" "$out/codes.txt"' EXIT
for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/ready" && break; sleep 0.05; done
timeout 600 python3 bench/shortener/seed.py "http://127.0.0.1:$port" "$(cat "$data/api-key")" "$links" "$out/codes.txt"
code=$(head -n 1 "$out/codes.txt")
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
run() { # path label
  taskset -c 1 wrk -t1 -c64 -d3s -s bench/wrk/pipeline.lua "http://127.0.0.1:$port$1" -- "$depth" >/dev/null
  local before after
  before=$(cpu)
  taskset -c 1 wrk -t1 -c64 -d10s -s bench/wrk/pipeline.lua "http://127.0.0.1:$port$1" -- "$depth" >"$out/$2.$round.wrk"
  after=$(cpu)
  local rps non
  rps=$(awk '/Requests\/sec/ {print $2}' "$out/$2.$round.wrk")
  non=$(awk '/Non-2xx/ {print $5}' "$out/$2.$round.wrk")
  echo "round $round $2 $rps $(echo "scale=3; ($after - $before) * 1000000 / $ticks / ($rps * 10)" | bc) non2xx3xx=${non:-0}" \
    | tee -a "$out/summary.txt"
}
for round in $(seq "$rounds"); do
  run /health health
  run "/$code" redirect
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
for label in health redirect; do
  echo "$label median rps $(awk -v l=$label '$3 == l {print $4}' "$out/summary.txt" | median)," \
    "CPU us/request $(awk -v l=$label '$3 == l {print $5}' "$out/summary.txt" | median)" | tee -a "$out/summary.txt"
done
h=$(awk '$3 == "health" {print $5}' "$out/summary.txt" | median)
r=$(awk '$3 == "redirect" {print $5}' "$out/summary.txt" | median)
echo "CPU per request, health/redirect (redirect as a fraction of /health's speed): $(echo "scale=3; $h / $r" | bc)" | tee -a "$out/summary.txt"
echo "raw output: $out"
