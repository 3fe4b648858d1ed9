#!/usr/bin/env bash
# What an idle server costs: starts `java -jar JAR serve APP SERVE_ARGS` on 127.0.0.1 (a free port),
# lets it settle, then reads every thread's voluntary context switches (its wake-ups) and CPU ticks
# (utime + stime, read past the thread's name, which may hold spaces) from /proc twice, WINDOW
# seconds apart, and prints each thread that woke more than once a second or ran at all, then the
# process's totals. Nothing is sent to the server; a server that is not running fails the script.
#   bench/idle-wakeups.sh JAR APP [SERVE_ARGS...]
# `{data}` in SERVE_ARGS becomes a fresh temporary directory, e.g.
#   bench/idle-wakeups.sh cli/target/hotpath.jar messages --data {data}
# SETTLE (default 8) is the seconds between the start and the first read, WINDOW (default 10) the
# window. Linux only (/proc). Ticks are of getconf CLK_TCK (100 a second here).
set -euo pipefail
if [[ $# -lt 2 ]]; then
    echo "usage: $0 JAR APP [SERVE_ARGS...]" >&2
    exit 2
fi
jar=$1 app=$2
shift 2
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
options="$(cd "$(dirname "$0")/.." && pwd)/jvm.options" # the flags the launcher gives every JVM
data=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
args=()
for a in "$@"; do args+=("${a//\{data\}/$data}"); done
"$java" "@$options" -jar "$jar" serve "$app" \
    --bind 127.0.0.1:0 "${args[@]}" > "$data/server.log" 2>&1 &
pid=$!
sleep "${SETTLE:-8}"
window=${WINDOW:-10}
alive() { # a server that died would read as a perfectly idle one
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "the server is not running; its output:" >&2
        cat "$data/server.log" >&2
        exit 1
    fi
}

sample() { # prints "TID NAME WAKEUPS TICKS" for every thread
    for task in /proc/"$pid"/task/*; do
        local tid=${task##*/}
        printf '%s %s %s %s\n' "$tid" "$(tr ' ' '_' < "$task/comm")" \
            "$(awk '/^voluntary_ctxt_switches/ { print $2 }' "$task/status")" \
            "$(sed 's/.*) //' "$task/stat" | awk '{ print $12 + $13 }')"
    done 2>/dev/null
}
alive
sample > "$data/before"
sleep "$window"
alive
sample > "$data/after"
echo "idle $app, ${window} s from ${SETTLE:-8} s after the start: $jar"
awk -v window="$window" 'NR == FNR { w[$1] = $3; t[$1] = $4; next }
    ($1 in w) { dw = $3 - w[$1]; dt = $4 - t[$1]; tw += dw; tt += dt
                if (dw > window || dt > 0) printf "  %-28s wake-ups %6d  ticks %4d\n", $2, dw, dt }
    END { printf "  %-28s wake-ups %6d  ticks %4d\n", "(all threads)", tw, tt }' "$data/before" "$data/after"
