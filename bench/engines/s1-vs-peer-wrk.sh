#!/usr/bin/env bash
# S1 (`GET /ping`) of hotpath's users app against any peer server, measured with wrk the way a new user
# would: each server alone on core 0 (taskset -c 0; hotpath with one event loop, the peer with whatever
# threads it starts on that one core), wrk on core 1 (-t1 -c64), a fresh server per run, the two
# alternated A B A B for ROUNDS rounds, for each pipelining depth (1 = none; N = N requests per write,
# bench/wrk/pipeline.lua). Each run: a warm-up wrk run (JIT), then the measured one, bounded by -d.
#   bench/engines/s1-vs-peer-wrk.sh --peer 'CMD ... {PORT} ...' [--peer-name NAME] [--rounds 3]
#       [--depths '1 16'] [--warmup 5] [--duration 10] [--port 18090] [--jar cli/target/hotpath.jar]
#       [--out DIR]
# The peer is any command that serves `GET /ping` on 127.0.0.1:{PORT}; it is started with `sh -c exec`,
# so its PID is the server's. This script neither builds nor fetches a peer.
#
# Per run it records requests/s and the server's CPU per request: utime + stime of the whole process
# (every thread: event loops, JIT, GC, runtime workers) from /proc/PID/stat before and after the
# measured run, over the requests wrk counted. It also records each side's busy share of its core
# (server: CPU seconds over wall seconds; wrk: via /usr/bin/time): a side near 1.00 is what limits the
# rate, and when that is wrk, requests/s compares the generator, not the servers; CPU per request still
# compares the servers. And the server's thread count at the end of the run.
#
# Any run with a socket error or a non-2xx answer fails the script (exit 1) after the summary is
# written. Output, small on purpose: DIR/summary.txt (set-up, table, medians, ratios) and DIR/wrk/*.txt
# (each measured run's wrk output). Default DIR: results/<UTC stamp>-s1-vs-peer (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/../.."

peer= peer_name=peer rounds=3 depths="1 16" warmup=5 duration=10 port=18090
jar=cli/target/hotpath.jar out=
java=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
# HOTPATH_JAVA_OPTS: more JVM flags for hotpath, as the ./hotpath launcher takes them (recorded in the summary).
# jvm.options holds the flags the launcher gives every JVM (Netty's and SQLite's access, JIT flags),
# so hotpath runs as `./hotpath serve` runs it.
jvm_flags=(@jvm.options -Xms1g -Xmx1g ${HOTPATH_JAVA_OPTS:-})
jar_modules=(http store apps loadgen cli) # the reactor modules `-pl cli -am` puts in the jar

usage() { sed -n '7,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case "$1" in
    --peer) peer=$2 ;; --peer-name) peer_name=$2 ;; --rounds) rounds=$2 ;; --depths) depths=$2 ;;
    --warmup) warmup=$2 ;; --duration) duration=$2 ;; --port) port=$2 ;; --jar) jar=$2 ;; --out) out=$2 ;;
    *) usage ;;
  esac
  shift 2
done
[ -n "$peer" ] && [[ "$peer" == *"{PORT}"* ]] || { echo "--peer 'CMD with {PORT}' is required" >&2; usage; }
[[ "$rounds$warmup$duration$port" =~ ^[0-9]+$ ]] || { echo "rounds, warm-up, duration and port are whole numbers (seconds)" >&2; exit 2; }
[ -f "$jar" ] || { echo "no $jar: build it first (./hotpath --version)" >&2; exit 2; }
out=${out:-results/$(date -u +%Y%m%dT%H%M%SZ)-s1-vs-peer}
mkdir -p "$out/wrk"
logs=$(mktemp -d)            # server logs (kept only to explain a failed start) and the jar measured
cp "$jar" "$logs/hotpath.jar" # every run starts this copy, even if a build replaces $jar meanwhile
url="http://127.0.0.1:$port/ping"
hz=$(getconf CLK_TCK)
pid=
if curl -s -m 1 -o /dev/null "$url"; then echo "something already answers on port $port: pick another (--port)" >&2; exit 1; fi

start_server() { # side -> sets pid
  if [ "$1" = hotpath ]; then
    taskset -c 0 "$java" "${jvm_flags[@]}" -jar "$logs/hotpath.jar" serve users --bind "127.0.0.1:$port" --event-loops 1 \
      >"$logs/$1.log" 2>&1 &
  else
    taskset -c 0 sh -c "exec ${peer//\{PORT\}/$port}" >"$logs/$1.log" 2>&1 &
  fi
  pid=$!
}

wait_ready() { # side: the server answers `pong` within 20 s, or the script stops
  for _ in $(seq 400); do
    kill -0 "$pid" 2>/dev/null || break
    [ "$(curl -s -m 1 "$url" 2>/dev/null)" = pong ] && return 0
    sleep 0.05
  done
  echo "$1 did not answer pong on $url; its log:" >&2
  tail -n 20 "$logs/$1.log" >&2
  exit 1
}

stop_server() { # TERM, 5 s to go, then KILL; only the PID this script started
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
}
trap 'stop_server; rm -rf "$logs"' EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; } # utime + stime of the whole process

run_wrk() { # seconds depth [time-file] -> wrk's output; timeout bounds a wrk that would not stop
  local timer=() script=()
  [ -n "${3:-}" ] && timer=(/usr/bin/time -f "%e %U %S" -o "$3")
  [ "$2" -gt 1 ] && script=(-s bench/wrk/pipeline.lua)
  timeout $(($1 + 30)) taskset -c 1 "${timer[@]}" wrk -t1 -c64 -d"$1s" "${script[@]}" "$url" -- "$2"
}

dirty=$(git status --porcelain -- "${jar_modules[@]}" | awk '{ split($2, p, "/"); n[p[1]]++ } END { for (m in n) printf " %s: %d", m, n[m] }')
{
  echo "# S1 GET /ping: hotpath vs $peer_name, wrk"
  echo "commit: $(git rev-parse --short HEAD) (uncommitted paths in the jar's modules ${jar_modules[*]}:${dirty:- none}); jar built $(date -u -r "$jar" +%FT%TZ), sha256 $(sha256sum "$jar" | cut -c1-12)"
  echo "date: $(date -u +%FT%TZ); cores: $(nproc); kernel: $(uname -r)"
  echo "java: $("$java" -version 2>&1 | head -n 1); $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2)"
  echo "hotpath: taskset -c 0 java ${jvm_flags[*]} -jar $jar serve users --bind 127.0.0.1:{PORT} --event-loops 1"
  echo "jvm.options: $(grep -v '^#' jvm.options | xargs)"
  echo "$peer_name: taskset -c 0 $peer"
  echo "load: taskset -c 1 wrk -t1 -c64, ${warmup} s warm-up then ${duration} s measured; depth > 1: -s bench/wrk/pipeline.lua -- DEPTH"
  echo "rounds: $rounds, A B A B, a fresh server per run"
  echo
  printf '%-5s %-5s %-8s %12s %10s %8s %8s %7s %6s\n' depth round server req/s cpu_us/req srv_busy wrk_busy threads errors
} >"$out/summary.txt"
cat "$out/summary.txt"

failed=0
for depth in $depths; do
  for round in $(seq "$rounds"); do
    for side in hotpath "$peer_name"; do
      start_server "$side"
      wait_ready "$side"
      run_wrk "$warmup" "$depth" >/dev/null
      before=$(cpu_ticks)
      log="$out/wrk/d$depth-r$round-$side.txt"
      run_wrk "$duration" "$depth" "$logs/time" >"$log"
      after=$(cpu_ticks)
      threads=$(ls "/proc/$pid/task" | wc -l)
      stop_server
      line=$(awk -v d="$depth" -v r="$round" -v s="$side" -v t="$threads" -v hz="$hz" -v ticks=$((after - before)) \
          -v wrk_time="$(cat "$logs/time")" '
        /requests in/ { n = $1 }
        /Requests\/sec/ { rps = $2 }
        /Socket errors/ { gsub(/,/, ""); errors += $4 + $6 + $8 + $10 }
        /Non-2xx or 3xx/ { errors += $NF }
        END {
          split(wrk_time, w, " ")
          cpu = ticks / hz
          printf "%-5s %-5s %-8s %12.0f %10.3f %8.2f %8.2f %7d %6d", d, r, s, rps, (n ? cpu * 1e6 / n : 0), cpu / w[1], (w[2] + w[3]) / w[1], t, errors + (n ? 0 : 1)
        }' "$log")
      echo "$line" | tee -a "$out/summary.txt"
      [ "$(echo "$line" | awk '{print $NF}')" = 0 ] || failed=1
    done
  done
done

median() { # depth side column -> the median of that column over the rounds
  awk -v d="$1" -v s="$2" -v c="$3" '$1 == d && $3 == s { print $c }' "$out/summary.txt" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
{
  echo
  printf '%-5s %14s %14s %12s %16s %16s %14s\n' depth "hotpath_req/s" "${peer_name}_req/s" "req/s_ratio" "hotpath_cpu_us" "${peer_name}_cpu_us" "cpu_ratio"
  for depth in $depths; do
    a=$(median "$depth" hotpath 4) b=$(median "$depth" "$peer_name" 4)
    ac=$(median "$depth" hotpath 5) bc=$(median "$depth" "$peer_name" 5)
    awk -v d="$depth" -v a="$a" -v b="$b" -v ac="$ac" -v bc="$bc" \
      'BEGIN { printf "%-5s %14.0f %14.0f %12.3f %16.3f %16.3f %14.3f\n", d, a, b, a / b, ac, bc, ac / bc }'
  done
  echo "(medians over the rounds; req/s_ratio = hotpath/$peer_name req/s, above 1 is faster;"
  echo " cpu_ratio = hotpath/$peer_name server CPU us per request, below 1 is cheaper)"
  [ "$failed" = 0 ] || echo "FAILED: a run had socket errors, non-2xx answers or no requests (errors column)"
} | tee -a "$out/summary.txt"
echo "raw output: $out"
exit "$failed"
