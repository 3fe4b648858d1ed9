#!/usr/bin/env bash
# The social issue's measurement: the closed-loop realistic mix (feed 1 : post 1 : like 0.15 :
# create 0.02, 64 connections, one token per connection) against two servers, each started on a fresh
# copy of SEED, pinned to core 0 with one event loop, alternated A B A B; load on core 1. Prints each
# run's req/s and server CPU µs per request, and the medians (hotpath bench compare).
#   bench/social/mix.sh SEED 'SERVER A' 'SERVER B' [ROUNDS]
# A server is a command that serves the social API on SQLITE_PATH at 127.0.0.1:{port}, e.g.
#   "java -jar $PWD/a.jar serve social --jwt-secret twelve-dollar-challenge --bind 127.0.0.1:{port} --event-loops 1"
# (a JDK 25 java; copy jars aside to compare builds). The Bun peer, after
# `npm ci --prefix bench/social/bun-peer`:
#   'env PORT={port} JWT_SECRET=twelve-dollar-challenge bench/social/bun-peer/node_modules/.bin/bun bench/social/bun-peer/server.ts'
# (use absolute paths: the servers start in the compare's working directory).
set -euo pipefail
if [[ $# -lt 3 ]]; then
    echo "usage: $0 SEED 'SERVER A' 'SERVER B' [ROUNDS]" >&2
    exit 2
fi
seed=$1 a=$2 b=$3 rounds=${4:-3}
here=$(cd "$(dirname "$0")/../.." && pwd)
tokens=$(mktemp)
trap 'rm -f "$tokens"' EXIT
"$here/hotpath" social tokens --db "$seed" --secret twelve-dollar-challenge --users 1..64 > "$tokens"
fresh="$here/bench/social/on-fresh-seed.sh $seed {data} taskset -c 0"
taskset -c 1 "$here/hotpath" bench compare social --tokens-file "$tokens" --connections 64 \
    --warmup 10s --duration 20s --rounds "$rounds" --a "$fresh $a" --b "$fresh $b" --results "${RESULTS:-results}"
