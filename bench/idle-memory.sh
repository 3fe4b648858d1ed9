#!/usr/bin/env bash
# Heap per idle keep-alive connection of `hotpath serve users`: heap used after a full GC with COUNT
# idle connections (each made one request), minus heap used after a full GC before they opened, over
# COUNT. Bounded: the client holds the connections at most 120 s.
#   bench/idle-memory.sh [COUNT]      (default 19800: the 20,000 of the target, less what a
#                                      20,000-descriptor process limit leaves)
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-idle-memory/
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-19800}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
out="results/$(date -u +%Y%m%dT%H%M%SZ)-idle-memory"
mkdir -p "$out"
port=18090
# Each process needs COUNT descriptors plus its own few dozen; where the hard limit is lower (20,000 in
# this sandbox, not raisable), ask for fewer connections: the figure is per connection.
ulimit -n "$(ulimit -Hn)"
if [ "$count" -gt $(( $(ulimit -n) - 200 )) ]; then
  echo "open-file limit $(ulimit -n) allows at most $(( $(ulimit -n) - 200 )) connections per process" >&2
  exit 2
fi

"$jdk/bin/java" @jvm.options -Xms256m -Xmx2g \
  -jar cli/target/hotpath.jar serve users --bind 127.0.0.1:$port --event-loops 1 \
  --max-connections $((count + 100)) --idle-timeout 10m >"$out/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; rm -f "$out/hold"' EXIT
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/ping" >/dev/null 2>&1 && break; sleep 0.05; done

heap_used_kb() { # full GC, then the "used" of the heap summary line, in KB
  "$jdk/bin/jcmd" "$server" GC.run >/dev/null
  "$jdk/bin/jcmd" "$server" GC.heap_info | tee -a "$out/heap_info.txt" | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {gsub("K","",$(i+1)); print $(i+1); exit}}'
}

before=$(heap_used_kb)
fifo="$out/hold"; mkfifo "$fifo"
"$jdk/bin/java" -cp bench/target/benchmarks.jar dev.hotpath.bench.IdleConnections $port "$count" 120 <"$fifo" >"$out/client.log" 2>&1 &
client=$!
exec 3>"$fifo"
until grep -q READY "$out/client.log" 2>/dev/null; do
  kill -0 $client 2>/dev/null || { cat "$out/client.log"; exit 1; }
  sleep 0.2
done
after=$(heap_used_kb)
rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$server/status)
echo stop >&3; exec 3>&-; wait $client || true

per_conn=$(echo "scale=1; ($after - $before) * 1024 / $count" | bc)
{
  echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"
  echo "connections: $count (each made one request, then idle)"
  echo "heap used before: ${before} KB, with connections: ${after} KB"
  echo "heap per idle connection: ${per_conn} bytes"
  echo "server RSS with connections: ${rss_kb} KB"
} | tee "$out/summary.txt"
