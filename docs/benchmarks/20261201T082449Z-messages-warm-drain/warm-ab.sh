#!/usr/bin/env bash
# scratch: part 1 of stream-drain.sh with a warm worker. Per round and jar: FLUSHALL, fresh data dir; the worker
# (core 0) starts first and drains during the harness's warm-up, is stopped (SIGSTOP) 0.5 s before the measured
# period, the server (--worker off, core 0) accepts for DURATION s (harness on core 1), then the harness is
# stopped, the watcher starts and the worker is continued: drain rate = entries / time.
set -euo pipefail
cd "$(dirname "$0")/../../.."; source bench/lib/stores.sh
out=$1; rounds=$2; shift 2
mkdir -p $out; out=$(cd $out && pwd)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
java="$J --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -CONT $p 2>/dev/null; kill -TERM $p 2>/dev/null; done; stop_stores' EXIT
start_redis $tmp/redis 1; rport=${REDIS_URI##*:}
warmup=5; duration=10
for r in $(seq $rounds); do
  for nj in "$@"; do
    name=${nj%%=*}; jar=${nj#*=}; run=$name-$r
    redis-cli -p $rport FLUSHALL >/dev/null
    data=$tmp/$run-data; port=$(free_port)
    taskset -c 0 $java -jar $jar serve messages --bind 127.0.0.1:$port --data $data --durability full --event-loops 1 --stream $REDIS_URI --worker off --idle-timeout 600s >$out/$run.server.log 2>&1 &
    sp=$!; pids+=($sp)
    for _ in $(seq 600); do curl -sf -o /dev/null http://127.0.0.1:$port/ready && break; sleep 0.05; done
    taskset -c 0 $java -jar $jar messages worker --stream $REDIS_URI --data $data --durability full >$out/$run.worker.log 2>&1 &
    kp=$!; pids+=($kp)
    until redis-cli -p $rport XINFO GROUPS hotpath:messages 2>/dev/null | grep -q hotpath-writers; do sleep 0.05; done
    taskset -c 1 $java -jar $jar bench messages --target http://127.0.0.1:$port --path /message-fast --connections 64 --results $out/$run --mode saturate --warmup ${warmup}s --duration ${duration}s --drain-deadline 600s >$out/$run.txt 2>&1 &
    hp=$!; pids+=($hp)
    sleep $((warmup - 1)).5
    kill -STOP $kp
    sleep $duration
    prev=-1
    for _ in $(seq 200); do len=$(redis-cli -p $rport XLEN hotpath:messages); [[ $len == $prev ]] && break; prev=$len; sleep 0.3; done
    kill -STOP $hp
    left=$(redis-cli -p $rport XINFO GROUPS hotpath:messages | sed -n '/^lag$/{n;p}')
    taskset -c 1 python3 bench/messages/stream_watch.py drain $rport --timeout 120 >$out/$run.watch.txt 2>&1 &
    wp=$!; pids+=($wp)
    sleep 0.2
    kill -CONT $kp
    wait $wp || { cat $out/$run.watch.txt; exit 1; }
    kill -TERM $kp; wait $kp || true
    st=unchecked
    if [[ -n ${CHECK:-} ]]; then kill -CONT $hp; st=0; wait $hp || st=$?; else kill -KILL $hp; wait $hp 2>/dev/null || true; fi
    kill -TERM $sp; wait $sp || true
    accept=$(grep -m1 'Throughput' $out/$run.txt || true)
    echo "$name round $r: harness exit $st, accept $accept/s (worker stopped), unread at stop $left; $(cat $out/$run.watch.txt); dead $(redis-cli -p $rport XLEN hotpath:messages:dead)" | tee -a $out/rounds.txt
  done
done
