#!/usr/bin/env bash
# one.sh JAR LABEL : one create run; prints req/s and per-thread CPU µs per create over a 10 s window
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; JO="--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
d=$(mktemp -d /tmp/prof/d.XXXX)
taskset -c 0 $J $JO $SOPTS -jar $1 serve shortener --bind 127.0.0.1:18080 --data $d/data --event-loops 1 --durability full > $d/server.log 2>&1 &
P=$!; sleep 2
(sleep 7; /tmp/prof/threads.sh $P > $d/t0.txt; curl -s 127.0.0.1:18080/metrics | grep -E '^hotpath_store_(batches|writes_committed|commit_seconds)_total' > $d/m0.txt; sleep 10; /tmp/prof/threads.sh $P > $d/t1.txt; curl -s 127.0.0.1:18080/metrics | grep -E '^hotpath_store_(batches|writes_committed|commit_seconds)_total' > $d/m1.txt) &
W=$!
taskset -c 1 $J $JO -jar /work/main/cli/target/hotpath.jar bench create --target http://127.0.0.1:18080 --key-file $d/data/api-key --connections 64 --warmup 5s --duration 15s --results $d/res > $d/bench.txt 2>&1
wait $W; kill $P; wait $P 2>/dev/null
rps=$(grep Throughput $d/bench.txt | grep -oE '[0-9,]+\.[0-9]' | head -1 | tr -d ,)
p99=$(grep -oE 'p99 [0-9.]+ ms' $d/bench.txt | head -1)
join $d/t0.txt $d/t1.txt | awk -v r=$rps -v l=$2 '{u=($4-$2)*10000/(r*10); s=($5-$3)*10000/(r*10); tu+=u; ts+=s; if ($1 ~ /write|IoEv/) printf "%s %-16s user %5.2f sys %5.2f  ", l, $1, u, s} END {printf "| total %5.2f us/create  %s req/s\n", tu+ts, r}'
echo "   $(grep -oE "p99.9 [0-9.]+ ms, max [0-9.]+ ms" $d/bench.txt) $p99 $(paste $d/m0.txt $d/m1.txt | awk '{v[$1]=$4-$2} END {b=v["hotpath_store_batches_total"]; printf "batches/s %.0f, writes per batch %.1f, commit ms %.3f", b/10, v["hotpath_store_writes_committed_total"]/b, 1000*v["hotpath_store_commit_seconds_total"]/b}')"; grep -c PASS $d/bench.txt >/dev/null || tail -5 $d/bench.txt
rm -rf $d
