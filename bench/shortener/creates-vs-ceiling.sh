#!/usr/bin/env bash
# Durable creates with the harness against the in-process SQLite ceiling, at the batch size the
# server can form and at the issue's 256 rows: `hotpath bench compare create` (64 connections,
# --durability full, group commit, the server on core 0 with one event loop, load on core 1; reports
# creates/s and server CPU µs per create), then SqliteBatchCeiling on core 0 with 64-row and 256-row
# transactions, ROUNDS times each.
#   bench/shortener/creates-vs-ceiling.sh [ROUNDS]
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-creates-vs-ceiling/
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$jdk/bin/java @jvm.options"
out="results/$(date -u +%Y%m%dT%H%M%SZ)-creates-vs-ceiling"
mkdir -p "$out"
# The copied jar and the ceiling's database go whatever happens.
trap 'rm -rf "$out/ceiling" "$out/hotpath.jar"' EXIT
cp cli/target/hotpath.jar "$out/hotpath.jar"
{ echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"; } >"$out/COMMIT.txt"
server="taskset -c 0 $java -jar $PWD/$out/hotpath.jar serve shortener --bind 127.0.0.1:{port} --data {data} --event-loops 1 --durability full"
taskset -c 1 $java -jar "$out/hotpath.jar" bench compare create --key-file '{data}/api-key' --connections 64 \
  --warmup 5s --duration 10s --rounds "$rounds" --a "$server" --b "$server" --results "$out" | tee "$out/compare.txt"
for batch in 64 256; do
  for round in $(seq "$rounds"); do
    rm -rf "$out/ceiling"
    taskset -c 0 $java -cp bench/target/benchmarks.jar dev.hotpath.bench.store.SqliteBatchCeiling "$out/ceiling" "$batch" 10 \
      | tee -a "$out/ceiling-$batch.txt"
  done
done
