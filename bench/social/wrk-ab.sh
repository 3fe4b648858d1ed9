#!/usr/bin/env bash
# Server CPU per request of two social-API servers under wrk's closed-loop realistic mix
# (bench/social/wrk-mix.lua), alternated A B A B: a second generator beside `hotpath bench compare
# social` (bench/social/mix.sh), whose load has another shape (wrk sends each connection's next
# request from its own thread). Each run: a fresh copy of SEED, the server alone on core 0, wrk on
# core 1 with 64 threads and 64 connections (one token each), a warm-up, then the measured run; the
# server's CPU is utime + stime of its whole process (every thread) from /proc/PID/stat over the
# measured run, divided by the requests wrk counted.
#   bench/social/wrk-ab.sh SEED 'SERVER A' 'SERVER B' [ROUNDS] [SECONDS]
# WARMUP (default 5) is each run's warm-up in seconds: a JVM still compiles after 5 s (C2 was 3.9% of
# hotpath's CPU in the measured window that follows), so a longer one compares warm servers. The
# warm-up is two wrk runs, its first half and its second, so that the server has seen its connections
# close and new ones open before it is measured, as a server in service has: a JIT that has not seen
# them throws the compiled request path back to the interpreter when the warm-up's connections close
# and recompiles it inside the measured run (docs/BENCHMARKS.md, 2026-12-06).
# A server is a command serving the social API on 127.0.0.1:{port}, run with `exec` (its PID is the
# server's) and with SQLITE_PATH, JWT_SECRET, HOST and PORT in its environment, e.g.
#   "java @$PWD/jvm.options -jar $PWD/cli/target/hotpath.jar serve social --bind 127.0.0.1:{port}"
# Needs wrk (apt-get install wrk). Any non-2xx answer or socket error fails the script (exit 1).
set -euo pipefail
if [[ $# -lt 3 ]]; then
    echo "usage: $0 SEED 'SERVER A' 'SERVER B' [ROUNDS] [SECONDS]" >&2
    exit 2
fi
seed=$1 a=$2 b=$3 rounds=${4:-3} seconds=${5:-20}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
pid=
stop() {
    if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; fi
}
trap 'stop; rm -rf "$work"' EXIT
"$here/hotpath" social tokens --db "$seed" --secret twelve-dollar-challenge --users 1..64 > "$work/tokens.txt"
source "$here/bench/lib/social-server.sh"
ticks=$(getconf CLK_TCK)
failed=0

cpu_ticks() { # utime + stime of process $1, all its threads
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}

run() { # run NAME COMMAND: writes "rps us_per_request p99_ms bad" to $work/NAME.result
    start_social_server "$seed" "$work" "$2" "$work/$1.log"
    pid=$SOCIAL_PID
    local port=$SOCIAL_PORT
    local warmup=${WARMUP:-5} half part
    half=$(( (warmup + 1) / 2 ))
    for part in "$half" $(( warmup - half )); do
        (( part > 0 )) || continue
        TOKENS=$work/tokens.txt taskset -c 1 wrk -t64 -c64 "-d${part}s" -s "$here/bench/social/wrk-mix.lua" "http://127.0.0.1:$port" > /dev/null
    done
    local before after line
    before=$(cpu_ticks "$pid")
    line=$(TOKENS=$work/tokens.txt taskset -c 1 wrk -t64 -c64 "-d${seconds}s" -s "$here/bench/social/wrk-mix.lua" \
        "http://127.0.0.1:$port" | grep '^RESULT')
    after=$(cpu_ticks "$pid")
    stop
    python3 - "$line" "$before" "$after" "$ticks" > "$work/$1.result" <<'PY'
import sys
fields = dict(kv.split("=") for kv in sys.argv[1].split()[1:])
requests, seconds = int(fields["requests"]), float(fields["seconds"])
cpu = (int(sys.argv[3]) - int(sys.argv[2])) / int(sys.argv[4])
bad = int(fields["non2xx"]) + int(fields["errors"])
print(f"{requests / seconds:.0f} {cpu * 1e6 / requests:.2f} {int(fields['p99_us']) / 1000:.1f} {bad}")
PY
}

declare -a ratios
for round in $(seq "$rounds"); do
    if (( round % 2 )); then order="A B"; else order="B A"; fi
    for side in $order; do
        if [[ $side == A ]]; then cmd=$a; else cmd=$b; fi
        run "$side" "$cmd" # in this shell, not a subshell: the EXIT trap must see the server's pid
    done
    read -r ra ua pa ba < "$work/A.result"
    read -r rb ub pb bb < "$work/B.result"
    (( ba + bb > 0 )) && failed=1
    ratio=$(python3 -c "print(f'{$ua / $ub:.3f}')")
    ratios+=("$ratio")
    echo "round $round: A $ra req/s, $ua us/request, p99 $pa ms, bad $ba | B $rb req/s, $ub us/request, p99 $pb ms, bad $bb | CPU A/B $ratio"
done
echo "median CPU per request A/B: $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }') over $rounds rounds"
exit "$failed"
