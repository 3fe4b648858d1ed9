#!/usr/bin/env bash
# The scale-out shortener's benchmarks (docs/SCALE-OUT.md), each an A/B `hotpath bench compare` with
# alternating rounds (node on core 0 with one event loop; the harness, PostgreSQL and Redis on core 1;
# server CPU µs per request from /proc), on a throwaway PostgreSQL and Redis of the run's own:
#   redirect-hit [DEPTH]  A: the embedded shortener, B: a scale-out node whose local cache holds every
#                         link; redirects of $LINKS seeded links, DEPTH requests in flight per
#                         connection (default 1; the issue asks for 1 and 16)
#   redis-hit             A: a node that holds every link, B: a node with --local-cache-size 0, so
#                         every redirect is answered from Redis
#   redis-ab              A and B: nodes with --local-cache-size 0 from the jars $A_JAR and $B_JAR (two
#                         builds, say before and after a change to the Redis path), same redirects;
#                         each on a database of its own that its build migrated
#   node-ab [DEPTH]       A and B: nodes holding every link, from the jars $A_JAR and $B_JAR (a change
#                         to the node-cache hit path), redirects as in redirect-hit
#   creates               A: a node with group commit, B: the same with --max-batch 1; then the
#                         in-process JDBC ceiling (bench PostgresBatchCeiling) at 64 and 256 rows
#   ready-10m             fills PostgreSQL with 10,000,000 links, then times a node's start until
#                         /ready answers 200, ROUNDS times; then once more to record the JDK's AOT
#                         cache, and ROUNDS times from it
#   bench/shortener/scale-out.sh SCENARIO [ROUNDS] [DEPTH]
# PostgreSQL and Redis run on core 1 with the load generator, or on STORES_CORE (say 0, with the
# server, so that the work a node makes its stores do is charged to the server's core).
# WARMUP (default 5s) is each run's warm-up before its measured 10 s. KEEP_SERVERS=1 starts each
# server of the redirect scenarios once for all rounds (`bench compare --keep-servers`, which reuses
# the first round's links); the other scenarios start fresh servers anyway. LINKS (default 10000) is
# how many links the redirect runs seed and ask for.
# Needs cli/target/hotpath.jar and bench/target/benchmarks.jar (./hotpath test builds both).
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-scale-out-<SCENARIO>/
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/stores.sh
scenario=${1:?scenario: redirect-hit, redis-hit, redis-ab, node-ab, creates or ready-10m}
rounds=${2:-3}
depth=${3:-1}
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$jdk/bin/java @jvm.options"
out="results/$(date -u +%Y%m%dT%H%M%SZ)-scale-out-$scenario"
mkdir -p "$out"
out=$(cd "$out" && pwd)
trap 'stop_stores; rm -rf "$out/stores" "$out/hotpath.jar"' EXIT
cp cli/target/hotpath.jar "$out/hotpath.jar"
jar="$out/hotpath.jar"
keep_servers=$([[ ${KEEP_SERVERS:-0} == 1 ]] && echo 1 || echo 0)
{ echo "commit: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"; echo "scenario: $scenario rounds: $rounds depth: $depth stores on core: ${STORES_CORE:-1} warmup: ${WARMUP:-5s} keep servers: $keep_servers links: ${LINKS:-10000}"; } >"$out/COMMIT.txt"
stores_core=${STORES_CORE:-1}
start_postgres "$out/stores/pg" "$stores_core"
start_redis "$out/stores/redis" "$stores_core"

# A scale-out node for `bench compare`: a fresh key in the table for the harness, then the node, from
# $node_jar when set (else this checkout's build), on the database $node_store when set (else $PG_URI).
node() { # extra flags
  local j=${node_jar:-$jar} store=${node_store:-$PG_URI}
  echo "sh -c '$java -jar $j keys create --store $store | sed -n \"s/^key //p\" > {data}/api-key" \
    "&& exec taskset -c 0 $java -jar $j serve shortener --bind 127.0.0.1:{port} --event-loops 1" \
    "--store $store --cache $REDIS_URI $*'"
}
embedded="taskset -c 0 $java -jar $jar serve shortener --bind 127.0.0.1:{port} --data {data} --event-loops 1"
$java -jar "$jar" shortener migrate --store "$PG_URI" >"$out/migrate.txt"
compare() { # scenario A B [flags]
  local what=$1 a=$2 b=$3
  shift 3
  local keep=()
  if [[ $keep_servers == 1 && $what == redirect ]]; then
    keep=(--keep-servers)
  fi
  taskset -c 1 $java -jar "$jar" bench compare "$what" --key-file '{data}/api-key' --connections 64 \
    --warmup "${WARMUP:-5s}" --duration 10s --rounds "$rounds" --a "$a" --b "$b" --results "$out" "${keep[@]}" "$@" \
    | tee -a "$out/compare.txt"
}

case $scenario in
  redirect-hit)
    compare redirect "$embedded" "$(node)" --links "${LINKS:-10000}" --pipeline "$depth" ;;
  redis-hit)
    compare redirect "$(node)" "$(node --local-cache-size 0)" --links "${LINKS:-10000}" ;;
  redis-ab|node-ab)
    echo "A: ${A_JAR:?A_JAR: the first build} B: ${B_JAR:?B_JAR: the second build}" >>"$out/COMMIT.txt"
    cache=$([[ $scenario == redis-ab ]] && echo --local-cache-size 0 || true)
    # A database each, migrated by its own build: a build refuses a schema newer than its own.
    for side in a b; do
      as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "hotpath_$side"
    done
    jar_of() { [[ $1 == a ]] && echo "$A_JAR" || echo "$B_JAR"; }
    for side in a b; do
      $java -jar "$(jar_of $side)" shortener migrate --store "${PG_URI%/*}/hotpath_$side" >>"$out/migrate.txt"
    done
    compare redirect "$(node_jar=$A_JAR node_store=${PG_URI%/*}/hotpath_a node $cache)" \
      "$(node_jar=$B_JAR node_store=${PG_URI%/*}/hotpath_b node $cache)" --links "${LINKS:-10000}" --pipeline "$depth" ;;
  creates)
    compare create "$(node)" "$(node --max-batch 1)"
    for batch in 64 256; do
      for round in $(seq "$rounds"); do
        taskset -c 0 $java -cp bench/target/benchmarks.jar dev.hotpath.bench.store.PostgresBatchCeiling "$PG_URI" \
          "$batch" 10 | tee -a "$out/ceiling-$batch.txt"
      done
    done ;;
  ready-10m)
    psql_hotpath "INSERT INTO links (id, protected, long_url, created_at)
      SELECT g, false, 'https://example.com/articles/' || g, 1796000000000 FROM generate_series(0, 9999999) g;
      SELECT setval('link_ids', 9999360, true);"
    psql_hotpath "VACUUM ANALYZE links"
    psql_hotpath "SELECT count(*) AS links FROM links" | tee "$out/links.txt"
    # ready ROUND [JVM flags]: starts a node, times it to /ready, checks it answers, stops it.
    ready() {
      local round=$1 port begin end code pid
      shift
      port=$(free_port)
      begin=$(date +%s%N)
      taskset -c 0 $java "$@" -jar "$jar" serve shortener --bind "127.0.0.1:$port" --store "$PG_URI" \
        --cache "$REDIS_URI" --key-file "$out/api-key" >"$out/node-$round.log" 2>&1 &
      pid=$!
      until [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready") == 200 ]]; do
        kill -0 $pid || { echo "the node exited: $out/node-$round.log" >&2; exit 1; }
        sleep 0.01
      done
      end=$(date +%s%N)
      code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/links" -H "Authorization: Bearer x")
      echo "round $round: ready in $(( (end - begin) / 1000000 )) ms (10,000,000 links; /api/links without a" \
        "key: $code)${1:+ with $1}" | tee -a "$out/ready.txt"
      kill -TERM $pid
      wait $pid || true
    }
    for round in $(seq "$rounds"); do
      ready "$round"
    done
    # The same with the JDK's AOT cache, as ./hotpath uses it: one training start records it at exit.
    ready training "-XX:AOTCacheOutput=$out/node.aot"
    for round in $(seq "$rounds"); do
      ready "aot-$round" "-XX:AOTCache=$out/node.aot"
    done
    rm -f "$out/node.aot" ;;
  *) echo "unknown scenario $scenario" >&2; exit 2 ;;
esac
