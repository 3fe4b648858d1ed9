#!/usr/bin/env python3
"""Watches the messages stream (hotpath:messages, group hotpath-writers) in Redis from outside the
server, one atomic snapshot (MULTI: XINFO STREAM, XINFO GROUPS, XPENDING) every --interval, on one
connection of its own. Used by bench/messages/stream-drain.sh:

  stream_watch.py drain PORT [--timeout S]
      Waits for the group to appear (the worker's XGROUP CREATE), then until every entry the stream
      holds is acknowledged (nothing pending, last delivered = last generated). Prints one line:
      `drained ENTRIES entries in SECONDS s: RATE/s (resolution MS ms)`, counting from the first snapshot
      that saw the group (ENTRIES: those not yet acknowledged then). Exit 1 at the timeout.

  stream_watch.py lag PORT --seconds S [--from T]
      Samples for S seconds (or until SIGTERM/SIGINT); entries added before the Unix time T (a load's
      warm-up) are watched but not counted. Each snapshot k has entries-added n_k and the
      last generated id g_k; the n_k - n_(k-1) entries added between snapshots k-1 and k were all
      acknowledged by the first snapshot j whose state shows every id <= g_k acknowledged, so each has
      a store lag of at most t_j - t_(k-1) (XADD to XACK; the XACK follows the commit). Prints the
      entry-weighted p50/p99/max of that upper bound, the sampling resolution (the median and largest
      gap between snapshots) and how many entries were never seen acknowledged.

Only the Python standard library; Redis on 127.0.0.1.
"""
import argparse
import signal
import socket
import sys
import time

STREAM = b"hotpath:messages"
GROUP = b"hotpath-writers"


class Redis:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def send(self, *commands):
        out = bytearray()
        for command in commands:
            out += b"*%d\r\n" % len(command)
            for arg in command:
                arg = arg if isinstance(arg, bytes) else str(arg).encode()
                out += b"$%d\r\n%s\r\n" % (len(arg), arg)
        self.sock.sendall(out)
        return [self.read() for _ in commands]

    def read(self):
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest
        if kind == b"-":
            return RedisError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.file.read(n + 2)
            return data[:-2]
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError("unexpected reply from Redis: %r" % line)


class RedisError(Exception):
    pass


def sid(value):
    """A stream id as a comparable (ms, seq) tuple."""
    ms, _, seq = value.decode().partition("-")
    return int(ms), int(seq or 0)


def pairs(reply):
    return {reply[i]: reply[i + 1] for i in range(0, len(reply), 2)}


def snapshot(redis):
    """(time, entries_added, last_generated, group or None), group = (last_delivered, entries_read, pending, pending_min)."""
    replies = redis.send([b"MULTI"], [b"XINFO", b"STREAM", STREAM], [b"XINFO", b"GROUPS", STREAM],
                         [b"XPENDING", STREAM, GROUP], [b"EXEC"])
    now = time.monotonic()
    result = replies[-1]
    if not isinstance(result, list):
        raise RuntimeError("MULTI failed: %r" % (replies,))
    stream, groups, pending = result
    if isinstance(stream, RedisError):  # no stream yet
        return now, 0, (0, 0), None
    info = pairs(stream)
    added, last = info[b"entries-added"], sid(info[b"last-generated-id"])
    group = None
    if isinstance(groups, list):
        for g in groups:
            g = pairs(g)
            if g[b"name"] == GROUP:
                p_count, p_min = pending[0], pending[1]
                group = (sid(g[b"last-delivered-id"]), g[b"entries-read"], p_count,
                         sid(p_min) if p_count else None)
    return now, added, last, group


def acked_through(group, upto):
    """Whether, in this group state, every entry with id <= upto is acknowledged."""
    if group is None:
        return upto == (0, 0)
    last_delivered, _, p_count, p_min = group
    return last_delivered >= upto and (p_count == 0 or p_min > upto)


def drain(args):
    redis = Redis(args.port)
    deadline = time.monotonic() + args.timeout
    start = None
    gaps = []
    previous = None
    while time.monotonic() < deadline:
        now, added, last, group = snapshot(redis)
        if previous is not None:
            gaps.append(now - previous)
        previous = now
        if group is not None:
            if start is None:
                _, entries_read, p_count, _ = group
                acked = (entries_read if entries_read is not None else 0) - p_count
                start, remaining = now, added - acked
            if acked_through(group, last):
                seconds = now - start
                resolution = max(gaps) * 1000 if gaps else 0
                print("drained %d entries in %.3f s: %.0f/s (resolution %.1f ms)"
                      % (remaining, seconds, remaining / seconds if seconds > 0 else float("nan"), resolution))
                return 0
        time.sleep(args.interval)
    print("not drained within %.0f s" % args.timeout)
    return 1


def percentile(weighted, p):
    """weighted: sorted [(value, weight)]; the smallest value with at least p of the weight at or below it."""
    total = sum(w for _, w in weighted)
    running = 0
    for value, w in weighted:
        running += w
        if running >= p * total:
            return value
    return weighted[-1][0] if weighted else float("nan")


def lag(args):
    redis = Redis(args.port)
    stop = [False]
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__(0, True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__(0, True))
    samples = []
    counted_from = time.monotonic() + (args.count_from - time.time() if args.count_from else float("-inf"))
    end = time.monotonic() + args.seconds
    while not stop[0] and time.monotonic() < end:
        samples.append(snapshot(redis))
        time.sleep(args.interval)
    # Batch k: entries added between snapshots k-1 and k, all with ids <= g_k; acknowledged by the
    # first snapshot j >= k whose group state shows every id <= g_k acknowledged.
    weighted = []
    unresolved = 0
    j = 0
    for k in range(1, len(samples)):
        n = samples[k][1] - samples[k - 1][1]
        if n <= 0 or samples[k - 1][0] < counted_from:
            continue
        j = max(j, k)
        while j < len(samples) and not acked_through(samples[j][3], samples[k][2]):
            j += 1
        if j == len(samples):
            unresolved += n
            continue
        weighted.append(((samples[j][0] - samples[k - 1][0]) * 1000, n))
    weighted.sort()
    gaps = sorted(samples[i][0] - samples[i - 1][0] for i in range(1, len(samples)))
    entries = sum(w for _, w in weighted)
    if not weighted:
        print("store lag: no entry seen acknowledged (%d unresolved)" % unresolved)
        return 1
    print("store lag (XADD to XACK, upper bound) over %d entries: p50 %.1f ms, p99 %.1f ms, max %.1f ms;"
          " snapshots %d, gap median %.2f ms, max %.2f ms; never seen acknowledged: %d"
          % (entries, percentile(weighted, 0.5), percentile(weighted, 0.99), weighted[-1][0], len(samples),
             gaps[len(gaps) // 2] * 1000, gaps[-1] * 1000, unresolved))
    return 0 if unresolved == 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("drain")
    d.add_argument("port", type=int)
    d.add_argument("--timeout", type=float, default=120)
    d.add_argument("--interval", type=float, default=0.002)
    d.set_defaults(run=drain)
    g = sub.add_parser("lag")
    g.add_argument("port", type=int)
    g.add_argument("--seconds", type=float, required=True)
    g.add_argument("--interval", type=float, default=0.001)
    g.add_argument("--from", dest="count_from", type=float, default=None)
    g.set_defaults(run=lag)
    args = parser.parse_args()
    sys.exit(args.run(args))


if __name__ == "__main__":
    main()
