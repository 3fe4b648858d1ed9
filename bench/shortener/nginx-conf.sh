#!/usr/bin/env bash
# Renders docs/nginx.conf for a cluster: the address of its `# @listen` line replaced by LISTEN, its
# `# @read` and `# @write` server lines by one line per node of each list (the first tagged line is
# the pattern, the others are dropped). The one renderer of that file: bench/shortener/cluster.sh and
# the cluster ITs (cli) both use it, so the tested config is the documented one.
#   bench/shortener/nginx-conf.sh LISTEN READ_NODES WRITE_NODES > nginx.conf
#   e.g. bench/shortener/nginx-conf.sh 127.0.0.1:8080 127.0.0.1:8091,127.0.0.1:8092 127.0.0.1:8081
# Fails (exit 1, nothing printed) when a list is empty or the template lost one of its tags.
set -euo pipefail
if [ $# -ne 3 ] || [ -z "$1" ] || [ -z "$2" ] || [ -z "$3" ]; then
  echo "usage: $0 LISTEN READ_NODES WRITE_NODES (nodes as HOST:PORT,HOST:PORT,...)" >&2
  exit 1
fi
template="$(dirname "$0")/../../docs/nginx.conf"
# Into a variable first, so that a failure prints nothing at all.
rendered=$(awk -v listen="$1" -v reads="$2" -v writes="$3" '
  # Prints `line` once per address of the comma-separated `list`, its server address replaced.
  function each(list, line,   n, address, i, out) {
    n = split(list, address, ",")
    for (i = 1; i <= n; i++) {
      out = line
      sub(/server +[^ ;]+/, "server " address[i], out)
      print out
    }
  }
  / # @listen$/ { sub(/listen +[^ ;]+/, "listen " listen); listens++; print; next }
  / # @read$/ { if (!read++) each(reads, $0); next }
  / # @write$/ { if (!write++) each(writes, $0); next }
  { print }
  END {
    if (listens != 1 || !read || !write) {
      print "nginx-conf.sh: the template needs one # @listen line and # @read and # @write server lines" > "/dev/stderr"
      exit 1
    }
  }
' "$template")
printf '%s\n' "$rendered"
