#!/usr/bin/env bash
# Start-up time and memory of the shortener with N links: seeds N links through the bulk API (server
# unpinned, --durability normal to seed faster; the file format is the same), then starts it again on
# core 0 with one event loop (--durability full) and records the time to /ready, heap used after a full
# GC, and RSS. Bounded: seeding and start-up each give up after 20 minutes.
#   bench/shortener/scale.sh [N] [HEAP]       (default 10000000 links, -Xmx6g)
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-scale-<N>/
set -euo pipefail
cd "$(dirname "$0")/../.."
links=${1:-10000000}
heap=${2:-6g}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
out="results/$(date -u +%Y%m%dT%H%M%SZ)-scale-$links"
data="$out/data"
mkdir -p "$out"
port=18800
pid=
# The store and the generated code list go whatever happens.
trap '[ -n "$pid" ] && kill -TERM $pid 2>/dev/null; rm -rf "$data" "$out/codes.txt"' EXIT
flags=(@jvm.options -Xms$heap -Xmx$heap)
wait_ready() { for _ in $(seq 24000); do curl -sf -o /dev/null "http://127.0.0.1:$port/ready" && return 0; sleep 0.05; done; return 1; }
echo "commit: $(git rev-parse HEAD); date: $(date -u +%FT%TZ); links: $links; heap: $heap" >"$out/CLAIMS.txt"

"$jdk/bin/java" "${flags[@]}" -jar cli/target/hotpath.jar serve shortener --bind 127.0.0.1:$port --data "$data" \
  --durability normal --max-links "$links" >"$out/seed.server.log" 2>&1 &
pid=$!
wait_ready
timeout 1200 python3 bench/shortener/seed.py "http://127.0.0.1:$port" "$(cat "$data/api-key")" "$links" "$out/codes.txt" | tee -a "$out/summary.txt"
kill -TERM $pid; wait $pid || true

t0=$(date +%s.%N)
taskset -c 0 "$jdk/bin/java" "${flags[@]}" -jar cli/target/hotpath.jar serve shortener --bind 127.0.0.1:$port \
  --data "$data" --max-links "$links" --event-loops 1 >"$out/measure.server.log" 2>&1 &
pid=$!
wait_ready
t1=$(date +%s.%N)
"$jdk/bin/jcmd" $pid GC.run >/dev/null
"$jdk/bin/jcmd" $pid GC.heap_info >"$out/heap.txt"
grep VmRSS /proc/$pid/status >>"$out/heap.txt"
code=$(head -n 1 "$out/codes.txt")
curl -s -o /dev/null -w "first code answers %{http_code}\n" "http://127.0.0.1:$port/$code" >>"$out/summary.txt"
kill -TERM $pid; wait $pid || true
{
  echo "start-up with $links links (process start to /ready, pinned to one core): $(echo "$t1 - $t0" | bc) s"
  cat "$out/heap.txt"
} | tee -a "$out/summary.txt"
