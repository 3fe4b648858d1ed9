#!/usr/bin/env bash
# The messages service's direct durable path against its stream path, on the same server command
# (docs/MESSAGES.md; issue 13: "direct (SQLite, --durability full) >= 1.0x the accept rate of
# /message-fast; PostgreSQL direct >= 0.5x the stream path"):
#   A: POST /message       answered 201 after the commit that holds the message (group commit);
#   B: POST /message-fast  answered 202 once the Redis stream holds it; the server's in-process worker
#                          stores the stream into the same store.
# One `hotpath bench compare messages --a-path /message --b-path /message-fast`: 64 connections,
# saturate mode, 5 s warm-up then 10 s measured (WARMUP, DURATION override), A B alternated ROUNDS
# times, each run on a fresh server (fresh SQLite directory, or a recreated PostgreSQL database) and an
# emptied Redis (FLUSHALL). Both sides run the same command: `serve messages --event-loops 1 --stream
# <throwaway Redis>` (worker on), with `--data {data} --durability full` (STORE sqlite) or `--store
# <throwaway PostgreSQL>` (STORE postgres, which commits with synchronous_commit=on); pinned to core 0.
# The harness, Redis and PostgreSQL share core 1 (as bench/shortener/scale-out.sh). Every answer is
# checked; A's acknowledged ids are read back once, B's in passes until found (drain deadline 60 s):
# a run that fails makes the comparison NOT VALID (exit 1).
# Reports per round messages/s accepted and server CPU µs per message (the hotpath process only, all
# its threads, over the measured period: for B that includes the worker's storing then, not Redis's or
# PostgreSQL's CPU, nor the worker's catching up after the period), the medians and direct/stream.
#   bench/messages/direct-vs-stream.sh [ROUNDS] [sqlite|postgres]     (defaults: 3 sqlite)
# From a clean clone: needs JDK 25 (JDK=..., default /usr/lib/jvm/temurin-25-jdk-amd64), redis-server,
# redis-cli, python3, and for postgres the Debian postgresql package; the jar is built if needed.
# Time: about ROUNDS x 2 x (15 s + start, read-back and stop, ~10-20 s) = ~3 min for 3 rounds.
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-messages-direct-vs-stream-<STORE>/
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/stores.sh
rounds=${1:-3}
store=${2:-sqlite}
[[ $store == sqlite || $store == postgres ]] || { echo "STORE must be sqlite or postgres, got $store" >&2; exit 2; }
warmup=${WARMUP:-5s}
duration=${DURATION:-10s}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$jdk/bin/java @jvm.options"
out="results/$(date -u +%Y%m%dT%H%M%SZ)-messages-direct-vs-stream-$store"
mkdir -p "$out"
out=$(cd "$out" && pwd)
compare_pid=
# Everything this script started: the compare JVM, any server it left behind (each server writes its
# PID to servers.pid; checked against its command line before it is signalled), Redis and PostgreSQL.
cleanup() {
  set +e
  if [[ -n $compare_pid ]] && kill -0 "$compare_pid" 2>/dev/null; then
    kill -TERM "$compare_pid" 2>/dev/null || true
    wait "$compare_pid" 2>/dev/null || true
  fi
  if [[ -f $out/servers.pid ]]; then
    while read -r pid; do
      if grep -qF "$out/hotpath.jar" "/proc/$pid/cmdline" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; fi
    done <"$out/servers.pid"
  fi
  stop_stores
  rm -rf "$out/stores" "$out/hotpath.jar" "$out/servers.pid"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
JAVA_HOME=$jdk ./hotpath --version >/dev/null # builds the jar when sources changed
cp cli/target/hotpath.jar "$out/hotpath.jar"
jar="$out/hotpath.jar"
{ echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"
  echo "store: $store rounds: $rounds warmup: $warmup duration: $duration connections: 64"; } >"$out/COMMIT.txt"
start_redis "$out/stores/redis" 1
redis_port=${REDIS_URI##*:}
if [[ $store == postgres ]]; then
  start_postgres "$out/stores/pg" 1
  # A fresh database per run: drop and create it (no server is connected between runs).
  fresh="$PG_BIN/dropdb -h 127.0.0.1 -p $PG_PORT -U postgres --if-exists --force hotpath && $PG_BIN/createdb -h 127.0.0.1 -p $PG_PORT -U postgres hotpath && "
  where="--store $PG_URI"
else
  fresh=""
  where="--data {data} --durability full"
fi
# One server command for both sides: a fresh store and an empty Redis, then the server on core 0.
server="sh -c 'echo \$\$ >>$out/servers.pid && $fresh redis-cli -p $redis_port FLUSHALL >/dev/null && exec taskset -c 0 $java -jar $jar serve messages --bind 127.0.0.1:{port} --event-loops 1 $where --stream $REDIS_URI'"
set +e
taskset -c 1 $java -jar "$jar" bench compare messages --connections 64 --warmup "$warmup" --duration "$duration" \
  --rounds "$rounds" --a "$server" --b "$server" --a-path /message --b-path /message-fast --drain-deadline 60s \
  --results "$out" >"$out/compare.txt" 2>&1 &
compare_pid=$!
wait "$compare_pid"
status=$?
compare_pid=
set -e
cat "$out/compare.txt"
dir=$(ls -d "$out"/*-compare 2>/dev/null | tail -n 1)
[[ -n $dir && -f $dir/compare.md ]] || { echo "no compare.md: see $out/compare.txt" >&2; exit 1; }
# The B runs' end-to-end figures (how long their messages took to be found after the run).
for run in "$dir"/B*/; do
  jq -r --arg run "$(basename "$run")" '"\($run): found \(.end_to_end.found) of \(.end_to_end.acknowledged) in \(.end_to_end.passes) passes, missing \(.end_to_end.missing)"' \
    "$run"/*/result.json
done >"$out/stream-readback.txt" || true
python3 - "$dir/compare.md" "$store" "$status" "$out" <<'EOF' | tee "$out/summary.txt"
import statistics, sys
compare, store, status, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rows = {"A": [], "B": []}
print(f"messages direct vs stream, store {store} (A: POST /message, B: POST /message-fast; 64 connections, saturate)")
print("round side  messages/s  server CPU us/message  verdict")
for line in open(compare, encoding="utf-8"):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 6 and cells[1] in rows:
        rows[cells[1]].append((float(cells[2]), float(cells[3])))
        print(f"{cells[0]:>5} {cells[1]:>4} {float(cells[2]):>11.1f} {float(cells[3]):>22.2f}  {cells[5]}")
if not rows["A"] or not rows["B"]:
    print("NOT VALID: no runs"); sys.exit(0)
med = {s: (statistics.median(r[0] for r in rows[s]), statistics.median(r[1] for r in rows[s])) for s in rows}
target = 1.0 if store == "sqlite" else 0.5
ratio = med["A"][0] / med["B"][0]
print(f"median direct {med['A'][0]:.1f} msg/s, {med['A'][1]:.2f} us CPU/msg; "
      f"stream {med['B'][0]:.1f} msg/s, {med['B'][1]:.2f} us CPU/msg")
print(f"direct/stream accept rate {ratio:.3f} (target >= {target}: {'met' if ratio >= target else 'NOT met'}); "
      f"CPU per message stream/direct {med['B'][1] / med['A'][1]:.3f}")
print(open(f"{out}/stream-readback.txt").read().rstrip())
print("VALID: every run passed" if status == 0 else "NOT VALID: a run failed (see compare.txt)")
print(f"raw output: {out}")
EOF
exit "$status"
