#!/usr/bin/env bash
# ad hoc: server CPU per request, hotpath users app vs plain Netty, non-pipelined harness load
cd /work/main
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; F="--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
out=$1; mkdir -p $out
run() { # label cmd...
  local label=$1; shift
  taskset -c 0 "$@" > $out/$label.$r.server.log 2>&1 & local pid=$!
  for _ in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:18950/ping && break; sleep 0.1; done
  local a=$(awk '{print $14+$15}' /proc/$pid/stat)
  taskset -c 1 $J $F -jar cli/target/hotpath.jar bench ping --target http://127.0.0.1:18950 --warmup 5s --duration 10s --results $out/h > $out/$label.$r.txt
  local b=$(awk '{print $14+$15}' /proc/$pid/stat)
  kill $pid; wait $pid 2>/dev/null
  local dir=$(grep -o '(.*)' $out/$label.$r.txt | tail -1 | tr -d '()')
  local total=$(python3 -c "import json; d=json.load(open('$dir/result.json')); print(d['ok'] + d['warmup']['ok'])")
  local rps=$(python3 -c "import json; print(round(json.load(open('$dir/result.json'))['rps']))")
  echo "round $r $label rps $rps cpu_us_per_req $(echo "scale=3; ($b - $a) * 10000 / $total" | bc)" | tee -a $out/summary.txt
}
for r in 1 2 3; do
  run hotpath $J $F -jar cli/target/hotpath.jar serve users --bind 127.0.0.1:18950 --event-loops 1
  run netty $J $F -cp bench/target/benchmarks.jar dev.hotpath.bench.NettyBaselineServer 18950 1
done
