#!/usr/bin/env bash
# The harness's generator against wrk on the same raw-socket peer server (bench RawSocketServer: no
# HTTP parsing, one write per batch), so the generator is what limits: server on core 0 (one event
# loop), each generator on core 1 with 64 connections, A B A B for ROUNDS rounds, medians.
#   A: hotpath bench ping --mode saturate --connections 64 --pipeline DEPTH --warmup 5s --duration 10s
#   B: wrk -t1 -c64 -d10s (after a 5 s warm-up run), bench/wrk/pipeline.lua when DEPTH > 1
#   bench/loadgen-vs-wrk.sh [ROUNDS] [DEPTH]
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-loadgen-vs-wrk-d<DEPTH>/
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
depth=${2:-1}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
flags=(@jvm.options)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-loadgen-vs-wrk-d$depth"
mkdir -p "$out"
port=18500
echo "commit: $(git rev-parse HEAD); date: $(date -u +%FT%TZ); depth: $depth; rounds: $rounds" >"$out/CLAIMS.txt"
taskset -c 0 "$jdk/bin/java" "${flags[@]}" -cp bench/target/benchmarks.jar dev.hotpath.bench.RawSocketServer $port 1 \
  >"$out/server.log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/ping" && break; sleep 0.1; done
wrk_args=(-t1 -c64)
[ "$depth" -gt 1 ] && wrk_args+=(-s bench/wrk/pipeline.lua)
for round in $(seq "$rounds"); do
  taskset -c 1 "$jdk/bin/java" "${flags[@]}" -jar cli/target/hotpath.jar bench ping --target "http://127.0.0.1:$port" \
    --connections 64 --pipeline "$depth" --warmup 5s --duration 10s --results "$out/harness" >"$out/hotpath.$round.txt" || true
  hp=$(grep -o 'Throughput | [0-9,.]* req/s' "$out/hotpath.$round.txt" | grep -o '[0-9,.]* req' | tr -d ', req')
  verdict=$(tail -n 1 "$out/hotpath.$round.txt" | cut -d' ' -f1)
  echo "round $round hotpath $hp $verdict" | tee -a "$out/summary.txt"
  if [ "$depth" -gt 1 ]; then
    taskset -c 1 wrk "${wrk_args[@]}" -d5s "http://127.0.0.1:$port/ping" -- "$depth" >/dev/null
    taskset -c 1 wrk "${wrk_args[@]}" -d10s "http://127.0.0.1:$port/ping" -- "$depth" >"$out/wrk.$round.txt"
  else
    taskset -c 1 wrk "${wrk_args[@]}" -d5s "http://127.0.0.1:$port/ping" >/dev/null
    taskset -c 1 wrk "${wrk_args[@]}" -d10s "http://127.0.0.1:$port/ping" >"$out/wrk.$round.txt"
  fi
  echo "round $round wrk $(awk '/Requests\/sec/ {print $2}' "$out/wrk.$round.txt")" | tee -a "$out/summary.txt"
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
h=$(awk '$3 == "hotpath" {print $4}' "$out/summary.txt" | median)
w=$(awk '$3 == "wrk" {print $4}' "$out/summary.txt" | median)
echo "median req/s: hotpath bench $h, wrk $w; ratio hotpath/wrk $(echo "scale=3; $h / $w" | bc)" | tee -a "$out/summary.txt"
echo "raw output: $out"
