#!/usr/bin/env bash
# Heap per idle-thinking virtual user of `hotpath bench --mode users`: the generator holds N users
# (then a baseline of 100) against the raw-socket peer server, every user thinking 60 s after its first
# answer; once all are connected and answered (ramp-up 5 s, then 10 s), a full GC and the heap used.
# (heap(N) - heap(100)) / (N - 100) is the cost of a user. This sandbox allows 20,000 open files per
# process, so N stays under that.
#   bench/loadgen/users-memory.sh [N]
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-users-memory-<N>/
set -euo pipefail
cd "$(dirname "$0")/../.."
users=${1:-19000}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
flags=(@jvm.options)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-users-memory-$users"
mkdir -p "$out"
port=18900
echo "commit: $(git rev-parse HEAD); date: $(date -u +%FT%TZ); users: $users" >"$out/CLAIMS.txt"
taskset -c 0 "$jdk/bin/java" "${flags[@]}" -cp bench/target/benchmarks.jar dev.hotpath.bench.RawSocketServer $port 1 \
  >"$out/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/ping" && break; sleep 0.1; done
measure() { # users label
  taskset -c 1 "$jdk/bin/java" "${flags[@]}" -Xmx2g -jar cli/target/hotpath.jar bench ping --target "http://127.0.0.1:$port" \
    --mode users --users "$1" --ramp-up 5s --duration 20s --ramp-down 1s --think-min 60s --think-max 60s \
    --results "$out/harness" >"$out/$2.bench.txt" 2>&1 &
  local gen=$!
  sleep 15
  "$jdk/bin/jcmd" $gen GC.run >/dev/null
  "$jdk/bin/jcmd" $gen GC.heap_info >"$out/$2.heap.txt"
  wait $gen || true
  awk '/used/ {for (i = 1; i <= NF; i++) if ($i == "used") {gsub(/K,?/, "", $(i + 1)); s += $(i + 1)}} END {print s}' "$out/$2.heap.txt"
}
base=$(measure 100 baseline)
full=$(measure "$users" full)
echo "heap used after GC: $users users $full KiB, 100 users $base KiB" | tee "$out/summary.txt"
echo "heap per user: $(echo "scale=1; ($full - $base) * 1024 / ($users - 100)" | bc) bytes" | tee -a "$out/summary.txt"
grep -h -E "^# |Attempted" "$out"/*.bench.txt | tee -a "$out/summary.txt"
echo "raw output: $out"
