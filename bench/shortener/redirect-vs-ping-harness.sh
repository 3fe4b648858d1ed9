#!/usr/bin/env bash
# GET /{code} over a store of N links (codes drawn uniformly or with Zipf popularity, every Location checked) against GET /ping
# of the users app, both on the hotpath engine, measured with the harness (hotpath bench), whose
# per-request cost does not depend on the path. Both servers on core 0 with one event loop (each idle
# while the other is loaded), the harness on core 1 with 64 connections, DEPTH-deep, warm-up 5 s,
# 10 s measured, A B A B for ROUNDS rounds, medians; links are seeded once and reused (--links-file).
#   bench/shortener/redirect-vs-ping-harness.sh [N] [ROUNDS] [DEPTH] [uniform|zipf]
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-redirect-vs-ping-harness-d<DEPTH>-<popularity>/
set -euo pipefail
cd "$(dirname "$0")/../.."
links=${1:-1000000}
rounds=${2:-3}
depth=${3:-1}
popularity=${4:-uniform}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
flags=(@jvm.options)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-redirect-vs-ping-harness-d$depth-$popularity"
mkdir -p "$out"
echo "commit: $(git rev-parse HEAD); date: $(date -u +%FT%TZ); links: $links; depth: $depth; rounds: $rounds; popularity: $popularity" >"$out/CLAIMS.txt"
taskset -c 0 "$jdk/bin/java" "${flags[@]}" -Xms2g -Xmx2g -jar cli/target/hotpath.jar serve shortener --bind 127.0.0.1:18601 \
  --data "$out/data" --max-links "$links" --event-loops 1 >"$out/shortener.log" 2>&1 &
shortener=$!
taskset -c 0 "$jdk/bin/java" "${flags[@]}" -Xms2g -Xmx2g -jar cli/target/hotpath.jar serve users --bind 127.0.0.1:18602 \
  --event-loops 1 >"$out/users.log" 2>&1 &
users=$!
trap 'kill -TERM $shortener $users 2>/dev/null; rm -rf "$out/data" "$out/links.tsv"' EXIT
for port in 18601 18602; do
  for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/health" -o /dev/null 2>/dev/null && break
    curl -s -o /dev/null "http://127.0.0.1:$port/ping" && break; sleep 0.1; done
done
bench() { taskset -c 1 "$jdk/bin/java" "${flags[@]}" -jar cli/target/hotpath.jar bench "$@" --connections 64 \
  --pipeline "$depth" --warmup 5s --duration 10s --results "$out/harness"; }
# Seed once, outside the measured rounds.
bench redirect --target http://127.0.0.1:18601 --key-file "$out/data/api-key" --links "$links" \
  --links-file "$out/links.tsv" >"$out/seed-run.txt" || true
rps() { grep -o 'Throughput | [0-9,.]* req/s' "$1" | grep -o '[0-9,.]* req' | tr -d ', req'; }
for round in $(seq "$rounds"); do
  bench redirect --target http://127.0.0.1:18601 --key-file "$out/data/api-key" --links "$links" \
    --links-file "$out/links.tsv" --popularity "$popularity" >"$out/redirect.$round.txt" || true
  echo "round $round redirect $(rps "$out/redirect.$round.txt") $(tail -n 1 "$out/redirect.$round.txt" | cut -d' ' -f1)" | tee -a "$out/summary.txt"
  bench ping --target http://127.0.0.1:18602 >"$out/ping.$round.txt" || true
  echo "round $round ping $(rps "$out/ping.$round.txt") $(tail -n 1 "$out/ping.$round.txt" | cut -d' ' -f1)" | tee -a "$out/summary.txt"
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
r=$(awk '$3 == "redirect" {print $4}' "$out/summary.txt" | median)
p=$(awk '$3 == "ping" {print $4}' "$out/summary.txt" | median)
echo "median req/s: redirect $r, ping $p; ratio redirect/ping $(echo "scale=3; $r / $p" | bc)" | tee -a "$out/summary.txt"
echo "raw output: $out"
