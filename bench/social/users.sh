#!/usr/bin/env bash
# Virtual users against one social server (docs/SOCIAL.md): starts SERVER on a fresh copy of SEED
# pinned to core 0, mints 19,000 tokens from the seed, and runs `hotpath bench social FLAGS...` on
# core 1 against it; with --score it also gives the command the server's PID (for the memory probe).
# Stops the server when done. The challenge's score, and its real 19,000-user hold:
#   bench/social/users.sh SEED 'SERVER' --score [--mix realistic|write-heavy] [SCORE FLAGS...]
#   bench/social/users.sh SEED 'SERVER' --mode users --users 19000 --duration 300s
# SERVER serves the social API on SQLITE_PATH at 127.0.0.1:{port} and must exec the server itself (its
# PID is the one measured), e.g.
#   "java @$PWD/jvm.options -jar $PWD/cli/target/hotpath.jar serve social --jwt-secret twelve-dollar-challenge --bind 127.0.0.1:{port}"
# A challenge entry built elsewhere reads HOST, PORT, SQLITE_PATH and JWT_SECRET, all exported here.
set -euo pipefail
if [[ $# -lt 2 ]]; then
    echo "usage: $0 SEED 'SERVER' BENCH FLAGS..." >&2
    exit 2
fi
seed=$1 server=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
pid=
cleanup() {
    if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
"$here/hotpath" social tokens --db "$seed" --secret twelve-dollar-challenge --users 1..19000 > "$work/tokens.txt"
source "$here/bench/lib/social-server.sh"
ulimit -n "$(ulimit -Hn)"
start_social_server "$seed" "$work" "$server" "$work/server.log"
pid=$SOCIAL_PID port=$SOCIAL_PORT
pid_flag=()
[[ " $* " == *" --score "* ]] && pid_flag=(--server-pid "$pid")
taskset -c 1 "$here/hotpath" bench social --target "http://127.0.0.1:$port" --tokens-file "$work/tokens.txt" \
    "${pid_flag[@]}" --results "${RESULTS:-results}" "$@"
