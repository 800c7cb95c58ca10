#!/usr/bin/env bash
# Wall clock with many threads, mixflame beside async-profiler in the same conditions: 990 threads asleep after a
# millisecond of work and 10 busy ones (ServicePoolApp of the agent's tests), sampled at 20 ms with thread roots for
# 12 s, as root and as user nobody, and once without a profiler; ROUNDS rounds (default 2). Prints one markdown row per
# run: ticks taken (mixflame's note), the intervals a sleeping worker's samples stand for (min-max), the busy threads'
# intervals and the share of them with a Java stack, process CPU over the run without a profiler, peak RSS.
#
# Needs the built jars (mvn -q package -DskipTests) and async-profiler's library (examples/target/profilers/).
# Usage: examples/scripts/wall-threads.sh [rounds]
set -euo pipefail
. "$(dirname "$0")/pool-workdir.sh"
rounds=${1:-2}

run() { # user profiler round
  local user=$1 profiler=$2 out="$work/$2-$1-$3.collapsed" agent=() as=()
  case $profiler in
    mixflame) agent=("-javaagent:$work/mixflame.jar=start,event=wall,interval=20ms,threads,file=$out") ;;
    async-profiler) agent=("-agentpath:$work/libasyncProfiler.so=start,event=wall,interval=20ms,threads,collapsed,file=$out") ;;
  esac
  [ "$user" = root ] || as=(runuser -u "$user" --)
  rm -f "$work/time"
  # The sleeping workers never wake: the run ends at a SIGTERM after 12 s, which writes the profiles as an exit does.
  "${as[@]}" /usr/bin/time -f '%U %S %M' -o "$work/time" timeout 12 java "${agent[@]}" -cp "$work/classes" \
    io.mixflame.testapp.ServicePoolApp 990 60 1000 100000000 10 >/dev/null 2>&1 || true
  read -r u s rss < <(tail -n 1 "$work/time")
  cpu=$(echo "$u + $s" | bc)
  [ "$profiler" = none ] && base=$cpu
  if [ -f "$out" ]; then
    awk -v user="$user" -v prof="$profiler" -v cpu="$cpu" -v base="$base" -v rss="$rss" '
      /^# note: .* wall-clock ticks/ && ticks == "" { match($0, /[0-9]+ of [0-9]+ wall-clock ticks/); ticks = substr($0, RSTART, RLENGTH - 17) }
      /^#/ { next }
      { n = $NF }
      /^\[service-pool-worker-/ { match($0, /worker-[0-9]+/); w[substr($0, RSTART, RLENGTH)] += n }
      /^\[service-busy-/ { busy += n; if ($0 ~ /ServicePoolApp\./) stacked += n }
      END { min = -1; max = 0; for (k in w) { if (min < 0 || w[k] < min) min = w[k]; if (w[k] > max) max = w[k] }
        printf "| %s | %s | %s | %d-%d | %d | %.0f%% | +%.1f s | %d MB |\n", user, prof, ticks == "" ? "-" : ticks,
          min, max, busy, busy ? 100 * stacked / busy : 0, cpu - base, rss / 1024 }' "$out"
  fi
}

echo "| user | profiler | ticks taken | sleeping worker's intervals (min-max) | busy threads' intervals | busy with stack | process CPU over none | peak RSS |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for round in $(seq "$rounds"); do
  for user in root nobody; do
    for profiler in none async-profiler mixflame; do
      run "$user" "$profiler" "$round"
    done
  done
done
