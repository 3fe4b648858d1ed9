#!/usr/bin/env bash
# scratch: fill a stream once (server --worker off, saturate), snapshot Redis (SAVE), then per round and jar:
# Redis restarted from the snapshot on core 1, a fresh data dir, `messages worker` alone on core 0, timed by
# stream_watch.py drain on core 1; per-thread CPU of the worker read from /proc when drained.
# usage: drain-ab.sh OUT ROUNDS FILLJAR NAME=JAR... (EXTRA_JVM for the worker, e.g. JFR)
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository root
source bench/lib/stores.sh
out=$1; rounds=$2; filljar=$3; shift 3
mkdir -p "$out"; out=$(cd "$out" && pwd)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
java="$J --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
tmp=$(mktemp -d)
pids=()
redis_pid=
cleanup() { for p in "${pids[@]}" $redis_pid; do kill -TERM "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
start_redis_at() { # dir
  local port; port=$(free_port)
  taskset -c 1 redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$1" --dbfilename dump.rdb >"$1/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 400); do [[ $(redis-cli -p "$port" ping 2>/dev/null) == PONG ]] && break; sleep 0.05; done
  while [[ $(redis-cli -p "$port" info persistence | grep -c 'loading:0') == 0 ]]; do sleep 0.05; done
  rport=$port
}
stop_redis() { kill -TERM "$redis_pid"; while kill -0 "$redis_pid" 2>/dev/null; do sleep 0.05; done; redis_pid=; }
if [[ ! -f "$out/fill"/dump.rdb ]]; then
  mkdir -p "$out/fill"; start_redis_at "$out/fill"
  port=$(free_port)
  taskset -c 0 $java -jar "$filljar" serve messages --bind 127.0.0.1:$port --data $tmp/fill-data --durability full --event-loops 1 --stream redis://127.0.0.1:$rport --worker off >$out/fill.server.log 2>&1 &
  sp=$!; pids+=($sp)
  for _ in $(seq 600); do curl -sf -o /dev/null http://127.0.0.1:$port/ready && break; sleep 0.05; done
  taskset -c 1 $java -jar "$filljar" bench messages --target http://127.0.0.1:$port --path /message-fast --connections 64 --mode saturate --warmup 2s --duration 10s --drain-deadline 1s --results $tmp/fillres >$out/fill.txt 2>&1 || true
  kill -TERM $sp; while kill -0 $sp 2>/dev/null; do sleep 0.1; done
  redis-cli -p $rport XLEN hotpath:messages | tee $out/fill-xlen.txt
  redis-cli -p $rport SAVE; stop_redis
fi
for r in $(seq "$rounds"); do
  for nj in "$@"; do
    name=${nj%%=*}; jar=${nj#*=}
    d=$tmp/$name-$r; mkdir -p $d/redis; cp "$out/fill"/dump.rdb $d/redis/
    start_redis_at $d/redis
    entries=$(redis-cli -p $rport XLEN hotpath:messages)
    taskset -c 1 python3 bench/messages/stream_watch.py drain $rport --timeout 120 >$out/$name-$r.watch.txt 2>&1 &
    wp=$!; pids+=($wp)
    taskset -c 0 $java ${EXTRA_JVM:-} -jar "$jar" messages worker --stream redis://127.0.0.1:$rport --data $d/data --durability full >$out/$name-$r.worker.log 2>&1 &
    kp=$!; pids+=($kp)
    if [[ -n ${PERF:-} ]]; then
      until redis-cli -p $rport XINFO GROUPS hotpath:messages 2>/dev/null | grep -q hotpath-writers; do sleep 0.01; done
      sleep 0.5
      perf record -C 0 -F 1999 -g -o $out/$name-$r.perf.data -- sleep 4 >$out/$name-$r.perf.log 2>&1
    fi
    wait $wp || { cat $out/$name-$r.watch.txt; exit 1; }
    { for t in /proc/$kp/task/*; do echo "$(cat $t/comm | tr ' ' _)-${t##*/} $(awk '{print $14, $15}' $t/stat)"; done; } | awk '{c=($2+$3)*10; if (c > 0) print $1, c, "ms", "(user", $2*10, "sys", $3*10 ")"}' | sort -k2 -n -r >$out/$name-$r.threads.txt
    kill -TERM $kp; while kill -0 $kp 2>/dev/null; do sleep 0.05; done
    echo "$name round $r: entries $entries: $(cat $out/$name-$r.watch.txt) | process CPU $(awk '{s+=$2} END {print s}' $out/$name-$r.threads.txt) ms; top: $(head -2 $out/$name-$r.threads.txt | tr '\n' ' ')" | tee -a $out/rounds.txt
    stop_redis
  done
done
