#!/usr/bin/env bash
# Thread scaling, mixflame beside async-profiler in the same conditions: a pool of N threads (50, 200, 1000, 2000)
# started in bursts, each burning 1 ms of CPU and then sleeping, together about 1.6 of the machine's cores, profiled at
# 10 ms with thread roots for 12 s, as root and as user nobody (this machine's default limits), and once without a
# profiler for the process's own CPU and memory. Prints one markdown row per run.
#
# Needs the built jars (mvn -q package -DskipTests) and async-profiler's library from Maven Central's
# tools.profiler:async-profiler jar (the examples build copies the jar to examples/target/profilers/).
# Usage: examples/scripts/thread-scaling.sh [threads...]
set -euo pipefail
. "$(dirname "$0")/pool-workdir.sh"
cores=$(nproc)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 200 1000 2000)

# Locked perf memory of a process: its perf_event mappings, summed (read mid-run).
perf_kib() {
  local sum=0 range
  while read -r range _; do
    sum=$(( sum + 0x${range#*-} - 0x${range%-*} ))
  done < <(grep 'anon_inode:\[perf_event\]' "/proc/$1/maps" 2>/dev/null)
  echo $(( sum / 1024 ))
}

run() { # user profiler threads
  local user=$1 profiler=$2 n=$3 sleep_ms=$(( $3 * 1000 / 1600 ))
  local out="$work/$profiler-$user-$n.collapsed" agent=()
  case $profiler in
    mixflame) agent=("-javaagent:$work/mixflame.jar=start,event=cpu,interval=10ms,threads,file=$out") ;;
    async-profiler) agent=("-agentpath:$work/libasyncProfiler.so=start,event=cpu,interval=10ms,threads,file=$out") ;;
  esac
  rm -f "$work/time"
  local prefix=()
  [ "$user" = root ] || prefix=(runuser -u "$user" --)
  (cd "$work" && "${prefix[@]}" /usr/bin/time -f "%U %S %M" -o "$work/time" java "${agent[@]}" -cp "$work/classes" io.mixflame.testapp.ServicePoolApp "$n" 12 1000 \
      "$sleep_ms" >"$work/out" 2>"$work/err") &
  local launcher=$! pid="" locked="?"
  for _ in $(seq 1 100); do
    pid=$(pgrep -f "ServicePoolApp $n 12" | while read -r p; do [ "$(cat /proc/$p/comm 2>/dev/null)" = java ] && echo "$p"; done | head -1 || true)
    [ -n "$pid" ] && grep -q started "$work/out" 2>/dev/null && break
    sleep 0.2
  done
  sleep 6
  [ -n "$pid" ] && locked=$(perf_kib "$pid")
  wait "$launcher" || true
  local cpu rss
  read -r cpu rss < <(awk '{printf "%.1f %d\n", $1 + $2, $3 / 1024}' "$work/time" 2>/dev/null || echo "? ?")
  local named="-" unknown="-" total="-" note="-"
  if [ -f "$out" ]; then
    read -r named unknown total < <(awk '$1 !~ /^#/ {t += $NF} $1 !~ /^#/ && /\[unknown\]/ {u += $NF}
        /^\[service-pool-worker-[0-9]+ tid=/ {match($0, /worker-[0-9]+ /); w[substr($0, RSTART, RLENGTH)] = 1}
        END {c = 0; for (k in w) c++; printf "%d %.2f %d\n", c, t ? 100 * u / t : 0, t}' "$out")
    note=$(grep -m1 '^# note: [0-9]* samples' "$out" | sed 's/^# note: //; s/ 0$//' | cut -c1-140 || true)
  fi
  echo "| $n | $user | $profiler | $total | $named | $unknown% | $locked KiB | $cpu s | $rss MB | $note |"
}

echo "machine: $cores cores, $(uname -r), perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid), perf_event_mlock_kb $(cat /proc/sys/kernel/perf_event_mlock_kb), ulimit -l $(ulimit -l)"
echo "| threads | user | profiler | samples | workers named | [unknown] | perf buffers mapped (6 s in) | process CPU | peak RSS | mixflame's note |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
  for user in root nobody; do
    for profiler in none async-profiler mixflame; do
      run "$user" "$profiler" "$n"
    done
  done
done
