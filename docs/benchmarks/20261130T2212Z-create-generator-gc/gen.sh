#!/usr/bin/env bash
# gen.sh GENJAR LABEL: create run against the current server build; prints latency and the generator's GC pauses
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; JO="--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
d=$(mktemp -d /tmp/prof/g.XXXX)
taskset -c 0 $J $JO -jar /tmp/prof/GEN.jar serve shortener --bind 127.0.0.1:18080 --data $d/data --event-loops 1 --durability full > $d/s.log 2>&1 & S=$!; sleep 2
taskset -c 1 $J $JO -Xlog:gc:file=$d/gen-gc.log -jar $1 bench create --target http://127.0.0.1:18080 --key-file $d/data/api-key --connections 64 --warmup 5s --duration 15s --results $d/res > $d/out.txt 2>&1
kill $S; wait $S 2>/dev/null
echo "$2 $(grep -oE '[0-9,.]+ req/s' $d/out.txt | head -1) $(grep -oE 'p99 [0-9.]+ ms, p99.9 [0-9.]+ ms, max [0-9.]+ ms' $d/out.txt) $(grep -oE 'Verified after the run \| [0-9,]+ of [0-9,]+' $d/out.txt) | generator GC pauses $(grep -c Pause $d/gen-gc.log), max $(grep Pause $d/gen-gc.log | awk '{print $NF}' | sort -n | tail -1)"
cp $d/gen-gc.log /tmp/prof/last-gen-gc.log; rm -rf $d
