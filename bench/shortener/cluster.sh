#!/usr/bin/env bash
# A local scale-out shortener cluster, to try it and to benchmark it (docs/SCALE-OUT.md): a
# throwaway PostgreSQL (initdb into a temp dir, as the postgres user when run as root) and Redis (no
# persistence), each on a free 127.0.0.1 port; WRITES write nodes and READS read nodes (hotpath serve
# shortener --store --cache --role); nginx in front running docs/nginx.conf as
# bench/shortener/nginx-conf.sh renders it. Servers pinned to core 0, the harness to core 1. Whatever
# happens, everything it started is stopped on exit, by PID, and its temp dirs are removed.
#
#   bench/shortener/cluster.sh [--reads N] [--writes W]
#       start (default 2 read nodes, 1 write node), print where everything is, and wait: Ctrl-C
#       stops it all (so does any server dying).
#   bench/shortener/cluster.sh --bench nginx|direct|both [--rps R] [--duration D] [--warmup T]
#                              [--reads N] [--writes W]
#       start, then run `hotpath bench mixed` (94% redirects, 5% creates, 1% misses; every answer
#       checked, every create read back) in rate mode at R req/s (default 2000) for D (default 30s,
#       after a warm-up of T, default 20s): through nginx, directly against write node 1 (it serves
#       redirects and the API alike: the "nginx overhead vs a direct node" baseline), or both in
#       turn; then stop. Exit 1 when a run FAILs. The warm-up is long because every server shares
#       core 0: three fresh JVMs compiling there fell behind 2,000 req/s for their first 8-13 s
#       (2026-12-04, docs/BENCHMARKS.md), so a 5-s warm-up failed the first run on drops and
#       handed the second one warm servers.
#
# Needs the fat jar (built here when sources changed, as ./hotpath does; a clean clone after
# ./hotpath test has it), PostgreSQL, redis-server and nginx from Debian (the launcher's test
# programs), taskset, curl and python3 (to find free ports).
# Raw output (git-ignored): results/<UTC stamp>-cluster/: where.txt, each server's log, the rendered
# nginx.conf, and each harness run (bench-nginx.txt and bench-nginx/, bench-direct.txt and bench-direct/).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/stores.sh
reads=2
writes=1
bench=
rps=2000
duration=30s
warmup=20s
while [ $# -gt 0 ]; do
  case "$1" in
    --reads) reads=$2; shift 2 ;;
    --writes) writes=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --rps) rps=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2 ;;
  esac
done
[[ $reads =~ ^[0-9]+$ && $writes =~ ^[1-9][0-9]*$ ]] || { echo "cluster.sh: --reads must be 0 or more, --writes 1 or more" >&2; exit 2; }
[[ -z $bench || $bench =~ ^(nginx|direct|both)$ ]] || { echo "cluster.sh: --bench is nginx, direct or both" >&2; exit 2; }

jdk=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
java=("$jdk/bin/java" @jvm.options)
out="results/$(date -u +%Y%m%dT%H%M%SZ)-cluster"
mkdir -p "$out"
tmp=$(mktemp -d)
chmod 755 "$tmp" # nginx's workers run as nobody when started as root, and need its temp dirs
pids=()

# Stops every server, newest first (nginx, then the nodes), by PID: SIGTERM, up to 30 s each, then
# SIGKILL; then the stores they used (stop_stores); then removes the temp dir.
stop_all() {
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill -s TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -s KILL "$pid" 2>/dev/null || true
  done
  stop_stores
  rm -rf "$tmp"
}
trap stop_all EXIT
trap 'exit 130' INT # Ctrl-C, also during `wait`: exit, which runs stop_all
trap 'exit 143' TERM

# Polls `$@` every 0.1 s until it succeeds; fails naming $1 after 60 s or when process $pid has died.
await() {
  local what=$1 pid=$2
  shift 2
  for _ in $(seq 600); do
    "$@" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || { echo "cluster.sh: $what exited; see $out" >&2; return 1; }
    sleep 0.1
  done
  echo "cluster.sh: $what not ready after 60 s; see $out" >&2
  return 1
}

./hotpath --version >/dev/null # builds the fat jar when sources changed
jar=cli/target/hotpath.jar
echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown); date: $(date -u +%FT%TZ); reads: $reads; writes: $writes" >"$out/where.txt"

# PostgreSQL and Redis (bench/lib/stores.sh: own dirs under $tmp, free ports), on core 0 with the nodes.
start_postgres "$tmp/stores/postgres" 0
start_redis "$tmp/stores/redis" 0
store=$PG_URI
cache=$REDIS_URI

# A node: NAME ROLE; its address is appended to the list of its role. The first write node starts
# alone: it migrates the schema and writes the first API key.
read_nodes=()
write_nodes=()
start_node() {
  local port
  port=$(free_port)
  taskset -c 0 "${java[@]}" ${HOTPATH_JAVA_OPTS:-} -jar "$jar" serve shortener --bind "127.0.0.1:$port" --store "$store" \
    --cache "$cache" --role "$2" --key-file "$tmp/api-key" >"$out/$1.log" 2>&1 &
  pids+=($!)
  await "node $1" $! curl -sf "http://127.0.0.1:$port/ready"
  if [ "$2" = write ]; then write_nodes+=("127.0.0.1:$port"); else read_nodes+=("127.0.0.1:$port"); fi
  echo "$1: http://127.0.0.1:$port (log $out/$1.log)" >>"$out/where.txt"
}
for ((i = 1; i <= writes; i++)); do start_node "write$i" write; done
for ((i = 1; i <= reads; i++)); do start_node "read$i" read; done

# With no read node, the write nodes answer the redirects too.
nginx_port=$(free_port)
upstream_reads=$(IFS=,; echo "${read_nodes[*]:-${write_nodes[*]}}")
bench/shortener/nginx-conf.sh "127.0.0.1:$nginx_port" "$upstream_reads" "$(IFS=,; echo "${write_nodes[*]}")" \
  >"$out/nginx.conf"
mkdir -p "$tmp/nginx"
cp "$out/nginx.conf" "$tmp/nginx/nginx.conf"
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
taskset -c 0 "$nginx_bin" -p "$tmp/nginx/" -c "$tmp/nginx/nginx.conf" -g "daemon off; pid $tmp/nginx/nginx.pid;" \
  >"$out/nginx.log" 2>&1 &
pids+=($!)
await nginx $! curl -sf "http://127.0.0.1:$nginx_port/health"
{
  echo "nginx: http://127.0.0.1:$nginx_port (config $out/nginx.conf, log $out/nginx.log)"
  echo "PostgreSQL: $store; Redis: $cache"
  echo "API key: $tmp/api-key (removed on exit)"
} >>"$out/where.txt"
cat "$out/where.txt"

if [ -z "$bench" ]; then
  echo "Ctrl-C stops everything."
  wait -n "${pids[@]}" || true
  echo "cluster.sh: a server exited; stopping the rest (logs in $out)" >&2
  exit 1
fi

# One harness run on core 1: NAME TARGET.
status=0
run_bench() {
  echo "== bench mixed via $1 ($2): $rps req/s for $duration after $warmup of warm-up"
  taskset -c 1 "${java[@]}" -jar "$jar" bench mixed --target "$2" --key-file "$tmp/api-key" --mode rate --rps "$rps" \
    --warmup "$warmup" --duration "$duration" --connections 64 --results "$out/bench-$1" | tee "$out/bench-$1.txt" || status=1
}
[ "$bench" = direct ] || run_bench nginx "http://127.0.0.1:$nginx_port"
[ "$bench" = nginx ] || run_bench direct "http://${write_nodes[0]}"
exit $status
