#!/usr/bin/env bash
# Runs a social server on a fresh copy of a seed, as the challenge's method asks (writes of one round
# must not reach the next): copies SEED into DIR, exports SQLITE_PATH to the copy and execs the rest of
# the line, so that signals reach the server itself.
#   bench/social/on-fresh-seed.sh SEED DIR COMMAND...
# e.g. as a server of `hotpath bench compare`:
#   --a "bench/social/on-fresh-seed.sh $PWD/seed.db {data} taskset -c 0 ./hotpath serve social --bind 127.0.0.1:{port}"
set -euo pipefail
if [[ $# -lt 3 ]]; then
    echo "usage: $0 SEED DIR COMMAND..." >&2
    exit 2
fi
seed=$1 dir=$2
shift 2
cp "$seed" "$dir/social.db"
export SQLITE_PATH=$dir/social.db
exec "$@"
