#!/usr/bin/env bash
# One full users-mode hold of the social challenge at the most users this sandbox's open-file limit allows.
set -u
cd /tmp/s/users
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
SQLITE_PATH=/tmp/s/users/social.db JWT_SECRET=twelve-dollar-challenge taskset -c 0 $J --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -jar /tmp/s/hp719.jar serve social --bind 127.0.0.1:18995 --event-loops 1 > server.log 2>&1 &
pid=$!
echo $pid > server.pid
for i in $(seq 1 100); do curl -s -o /dev/null http://127.0.0.1:18995/health && break; sleep 0.2; done
taskset -c 1 $J -jar /tmp/s/hp719.jar bench social --mode users --users 19000 --ramp-up 60s --duration 300s --ramp-down 30s --target http://127.0.0.1:18995 --tokens-file /tmp/s/tokens19k.txt --results /tmp/s/results > bench.out 2>&1
echo "bench exit $?" >> bench.out
grep -E "VmHWM|VmRSS|Threads" /proc/$pid/status > server.status
ls /proc/$pid/fd | wc -l >> server.status
awk '{print "cpu_ticks utime+stime", $14+$15}' /proc/$pid/stat >> server.status
kill $pid
