# Throwaway PostgreSQL and Redis for the scale-out bench scripts, sourced by them: each in its own
# directory under the run's results, on a free loopback port, never the machine's own services.
# As root, PostgreSQL runs as the `postgres` user (it refuses to run as root), as ThrowawayPostgres
# does in the tests. Functions set PG_URI / REDIS_URI and remember their PIDs; stop_stores stops
# what they started (call it from an EXIT trap).
#   source bench/lib/stores.sh; start_postgres DIR [CORES]; start_redis DIR [CORES]; ...; stop_stores

STORE_PIDS=()

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

as_postgres() {
  if [[ $(id -u) == 0 ]]; then setpriv --reuid=postgres --regid=postgres --init-groups "$@"; else "$@"; fi
}

# start_postgres DIR [CORES]: initdb into DIR/pg, start on a free port pinned to CORES (default 1),
# create database hotpath; sets PG_URI, PG_PORT, PG_DATA, PG_BIN.
start_postgres() {
  local dir=$1 cores=${2:-1}
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  PG_BIN=${PG_BIN:-$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")}
  [[ -x $PG_BIN/initdb ]] || { echo "PostgreSQL binaries missing: apt-get install postgresql" >&2; return 1; }
  mkdir -p "$dir"
  if [[ $(id -u) == 0 ]]; then chown postgres "$dir"; fi
  PG_DATA="$dir/pg"
  as_postgres "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -A trust --encoding=UTF8 --locale=C --no-sync \
    --no-instructions >"$dir/initdb.log" 2>&1
  local port
  port=$(free_port)
  # Not through as_postgres: a function in the background is a subshell, and its PID is not the
  # server's. setpriv and taskset exec, so $! is the postmaster's.
  local run_as=()
  if [[ $(id -u) == 0 ]]; then run_as=(setpriv --reuid=postgres --regid=postgres --init-groups --); fi
  "${run_as[@]}" taskset -c "$cores" "$PG_BIN/postgres" -D "$PG_DATA" -p "$port" -k "$PG_DATA" \
    -c listen_addresses=127.0.0.1 -c max_connections=200 >"$dir/postgres.log" 2>&1 &
  STORE_PIDS+=($!)
  for _ in $(seq 200); do
    as_postgres "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" && break
    sleep 0.05
  done
  as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres hotpath
  PG_PORT=$port
  PG_URI="postgres://postgres@127.0.0.1:$port/hotpath"
}

# psql_hotpath SQL: runs SQL in the database start_postgres created.
psql_hotpath() {
  as_postgres "$PG_BIN/psql" -v ON_ERROR_STOP=1 -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d hotpath -c "$1"
}

# start_redis DIR [CORES]: redis-server without persistence on a free port; sets REDIS_URI.
start_redis() {
  local dir=$1 cores=${2:-1} port
  mkdir -p "$dir"
  port=$(free_port)
  taskset -c "$cores" redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" \
    >"$dir/redis.log" 2>&1 &
  STORE_PIDS+=($!)
  for _ in $(seq 200); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
  REDIS_URI="redis://127.0.0.1:$port"
}

stop_stores() {
  local pid
  for pid in "${STORE_PIDS[@]}"; do
    kill -INT "$pid" 2>/dev/null || true
  done
  for pid in "${STORE_PIDS[@]}"; do
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  done
  STORE_PIDS=()
}
