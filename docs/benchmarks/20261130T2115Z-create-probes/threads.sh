#!/usr/bin/env bash
# threads.sh PID : prints per-thread utime stime (ticks) 
for t in /proc/$1/task/*; do
  n=$(cat $t/comm); read -a s < $t/stat
  # fields after comm: handle comm with spaces by using the stat file differently
  st=$(sed 's/.*) //' $t/stat); set -- $st
  echo "$n ${12} ${13}"
done | awk '{u[$1]+=$2; s[$1]+=$3} END {for (k in u) print k, u[k], s[k]}' | sort
