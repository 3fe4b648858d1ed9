#!/usr/bin/env bash
# The messages service's direct durable path with group commit against the same server with one
# commit per message (--max-batch 1, the one-insert-per-request design of the services it is compared
# with): `hotpath bench compare messages` (POST /message, 64 connections, --durability full, every
# answer checked and every acknowledged id read back), the server on core 0 with one event loop, load
# on core 1, A B alternated, ROUNDS rounds; reports messages/s and server CPU µs per message.
#   bench/messages/group-commit.sh [ROUNDS]
# WARMUP (default 5s) is each run's warm-up before its measured 10 s; CONNECTIONS (default 64) the
# connections both servers are loaded with. The ratio grows with them: a batch takes about half the
# connections, while one commit per message waits on each fsync whatever the count (docs/BENCHMARKS.md,
# "Messages: group commit by connections").
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-messages-group-commit/
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$jdk/bin/java @jvm.options"
out="results/$(date -u +%Y%m%dT%H%M%SZ)-messages-group-commit"
mkdir -p "$out"
# The copied jar goes whatever happens; the servers' data dirs are the harness's own temp dirs.
trap 'rm -f "$out/hotpath.jar"' EXIT
./hotpath --version >/dev/null # builds the jar when sources changed
cp cli/target/hotpath.jar "$out/hotpath.jar"
{ echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"; echo "warmup: ${WARMUP:-5s}"; echo "connections: ${CONNECTIONS:-64}"; } >"$out/COMMIT.txt"
server="taskset -c 0 $java -jar $out/hotpath.jar serve messages --bind 127.0.0.1:{port} --data {data} --event-loops 1 --durability full"
taskset -c 1 $java -jar "$out/hotpath.jar" bench compare messages --connections "${CONNECTIONS:-64}" \
  --warmup "${WARMUP:-5s}" --duration 10s --rounds "$rounds" --a "$server" --b "$server --max-batch 1" --results "$out" \
  | tee "$out/compare.txt"
