# Starts one social-API server for the bench/social scripts, sourced by them: on a fresh copy of a
# seed, pinned to core 0, with SQLITE_PATH, JWT_SECRET, HOST and PORT in its environment and {port}
# in its command replaced; returns once GET /health answers, or exits 1 with the server's output.
# Sets SOCIAL_PORT and SOCIAL_PID (the server's own: the command runs under exec).
#   source bench/lib/social-server.sh; start_social_server SEED DIR 'COMMAND' LOG

start_social_server() {
    local seed=$1 dir=$2 command=$3 log=$4
    SOCIAL_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    cp "$seed" "$dir/social.db"
    rm -f "$dir/social.db-wal" "$dir/social.db-shm"
    SQLITE_PATH=$dir/social.db JWT_SECRET=twelve-dollar-challenge HOST=127.0.0.1 PORT=$SOCIAL_PORT \
        taskset -c 0 bash -c "exec ${command//\{port\}/$SOCIAL_PORT}" > "$log" 2>&1 &
    SOCIAL_PID=$!
    for _ in $(seq 600); do
        curl -sf "http://127.0.0.1:$SOCIAL_PORT/health" > /dev/null && return 0
        kill -0 "$SOCIAL_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "the server '$command' did not become healthy; its output:" >&2
    cat "$log" >&2
    kill "$SOCIAL_PID" 2>/dev/null || true
    exit 1
}
