#!/usr/bin/env bash
# Two builds of hotpath measured against each other in one run, so a change's effect is a ratio
# from the same machine state: each revision is checked out into a temporary worktree, its fat jar
# built there, then `./hotpath bench compare SCENARIO` (this checkout's harness) starts the two
# servers fresh each round, alternated A B A B, server on core 0 with one event loop, load on core 1.
#   bench/compare-revisions.sh REV_A REV_B SCENARIO [ROUNDS] [SERVE_ARGS...]
# SCENARIO is ping, users-get or users-mix (serve users: the engine suite's S1, S2 and S3 mix; S4
# with SERVE_ARGS --store sqlite --data {data}), redirect, create or mixed (serve shortener), or messages
# (serve messages, POST /message); SERVE_ARGS replace each server's extra arguments (default for the
# shortener and messages: --durability full). WARMUP (default 5s) is each run's warm-up; PIPELINE
# (default 1) the requests in flight per connection. Both servers run with this checkout's jvm.options.
# Raw output (git-ignored, outside docs/): results/<UTC stamp>-revisions-<scenario>/
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 3 ]]; then
  echo "usage: $0 REV_A REV_B SCENARIO [ROUNDS] [SERVE_ARGS...]" >&2
  exit 2
fi
rev_a=$1 rev_b=$2 scenario=$3 rounds=${4:-3}
shift $(( $# < 4 ? $# : 4 ))
jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$jdk/bin/java @jvm.options"
out="results/$(date -u +%Y%m%dT%H%M%SZ)-revisions-$scenario"
mkdir -p "$out"
trees=()
# The worktrees and the jars go whatever happens; the summaries stay.
trap 'for t in "${trees[@]}"; do git worktree remove --force "$t" >/dev/null 2>&1 || true; done; rm -f "$out"/*.jar' EXIT

build() { # revision label: builds the revision's fat jar into $out/<label>.jar
  local tree="$out/tree-$2"
  git worktree add --detach "$tree" "$1" >/dev/null
  trees+=("$tree")
  (cd "$tree" && JAVA_HOME="$jdk" ./mvnw -B -q -ntp -DskipTests package -pl cli -am) >&2
  cp "$tree/cli/target/hotpath.jar" "$out/$2.jar"
  git worktree remove --force "$tree"
}
build "$rev_a" a
build "$rev_b" b
{
  echo "A: $(git rev-parse "$rev_a") ($rev_a)"; echo "B: $(git rev-parse "$rev_b") ($rev_b)"
  echo "harness: $(git rev-parse HEAD)"; echo "date: $(date -u +%FT%TZ)"
  echo "jvm.options: $(grep -v '^#' jvm.options | xargs)"; echo "pipeline: ${PIPELINE:-1}"
} >"$out/REVISIONS.txt"

case "$scenario" in
  ping|users-get|users-mix) app="users"; extra=(); flags=() ;;
  redirect|create|mixed) app="shortener --data {data}"; extra=(--durability full); flags=(--key-file '{data}/api-key') ;;
  messages) app="messages --data {data}"; extra=(--durability full); flags=() ;;
  *) echo "unknown scenario '$scenario' (ping, users-get, users-mix, redirect, create, mixed, messages)" >&2; exit 2 ;;
esac
if [[ $# -gt 0 ]]; then extra=("$@"); fi
server() { echo "taskset -c 0 $java -jar $out/$1.jar serve $app --bind 127.0.0.1:{port} --event-loops 1 ${extra[*]:-}"; }
taskset -c 1 ./hotpath bench compare "$scenario" "${flags[@]}" --connections 64 --pipeline "${PIPELINE:-1}" \
  --warmup "${WARMUP:-5s}" --duration 10s --rounds "$rounds" --a "$(server a)" --b "$(server b)" --results "$out" \
  | tee "$out/compare.txt"
