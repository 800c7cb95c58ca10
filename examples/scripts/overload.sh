#!/usr/bin/env bash
# The perf engine and the wall clock on an oversubscribed machine, beside async-profiler: a pool of workers, each
# burning 2 ms of CPU and sleeping 5 ms, wanting 1, 5 and 50 times the cores, profiled for 12 s at 10 ms (CPU) and
# 20 ms (wall) as the user given (default: the caller). Prints a Markdown table: samples, lost and dropped,
# [unknown], the workers with CPU of 3 intervals or more left without a sample, the part of the workers' CPU time
# (as the kernel counted it) that the samples stand for, mixflame's walk lag and rings, and the wall clock's ticks
# (mixflame's note: ticks taken of those asked; for both, the samples of the workers against every worker at every
# tick).
#
# Usage, after `mvn -q -DskipTests package` (which compiles the test programs too):
#   examples/scripts/overload.sh [USER] [JAVA_HOME]
set -euo pipefail
source "$(dirname "$0")/pool-workdir.sh"
user=${1:-$(id -un)}
java=${2:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}/bin/java
cores=$(nproc)
as_user() { if [ "$user" = "$(id -un)" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }

# One run: $1 label, $2 workers, $3 agent option; prints a table row.
row() {
  local label=$1 workers=$2 agent=$3
  local out="$work/${label// /-}-$workers"
  as_user "$java" "$agent$out.collapsed" -cp "$work/classes" io.mixflame.testapp.ServicePoolApp "$workers" 12 2000 5 \
    > "$out.stdout" 2> "$out.stderr"
  awk -v label="$label" -v workers="$workers" -v times="$((workers * 2 / 7 / cores))" -v stdout="$out.stdout" '
    BEGIN { while ((getline l < stdout) > 0) if (l ~ /^cpu service-pool-worker-/) { split(l, f, " "); cpu[f[2]] = f[3]; total += f[3] } }
    /^# note: [0-9]+ samples/ { match($0, /[0-9]+ lost, [0-9]+ dropped/); ld = substr($0, RSTART, RLENGTH)
                                if (match($0, /walked [0-9.]+ µs p50 \/ [0-9.]+ µs p99/)) lag = substr($0, RSTART + 7, RLENGTH - 7) }
    /^# note: perf ring buffers/ { match($0, /[0-9]+ x [0-9]+ KiB/); rings = substr($0, RSTART, RLENGTH) }
    /^# note: [0-9]+ of [0-9]+ wall-clock ticks/ { ticks = $3 " of " $5 }
    /^#/ || NF == 0 { next }
    { n = $NF; all += n; if ($0 ~ /\[unknown\]/) unknown += n
      if (match($0, /^\[service-pool-worker-[0-9]+ /)) { w = substr($0, 2, RLENGTH - 2); named[w] += n; ws += n } }
    END { for (w in cpu) if (cpu[w] >= 30000000 && !(w in named)) unnamed++
          # async-profiler counts a wall sample once: its share of every worker at every tick of the 12 s.
          if (label ~ /async-profiler wall/) ticks = sprintf("%.1f%% of %d workers x 600", ws * 100 / (workers * 600), workers)
          # mixflame: the ticks its note counted, and the same share of every worker at every tick.
          if (label ~ /mixflame wall/) ticks = sprintf("%s; %.1f%% of %d workers x 600", ticks, ws * 100 / (workers * 600), workers)
          printf "| %d× (%d workers) | %s | %d | %s | %d | %d | %s | %s | %s | %s |\n", times, workers, label, all,
            ld == "" ? "–" : ld, unknown, unnamed, label ~ /wall/ || total == 0 ? "–" : sprintf("%.2f", ws * 1e7 / total), lag == "" ? "–" : lag,
            rings == "" ? "–" : rings, ticks == "" ? "–" : ticks }' "$out.collapsed"
}

echo "| pool | profiler | samples | lost, dropped | [unknown] | workers of 3+ intervals unnamed | samples / workers' CPU | walk lag | rings | wall ticks |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for times in 1 5 50; do
  workers=$((times * cores * 7 / 2))
  row "async-profiler cpu" "$workers" "-agentpath:$work/libasyncProfiler.so=start,event=cpu,interval=10ms,threads,collapsed,file="
  row "mixflame cpu" "$workers" "-javaagent:$work/mixflame.jar=start,event=cpu,engine=perf,interval=10ms,threads,file="
done
row "async-profiler wall 20 ms" $((50 * cores * 7 / 2)) "-agentpath:$work/libasyncProfiler.so=start,event=wall,interval=20ms,threads,collapsed,file="
row "mixflame wall 20 ms" $((50 * cores * 7 / 2)) "-javaagent:$work/mixflame.jar=start,event=wall,interval=20ms,threads,file="
echo
echo "$(uname -r), $cores cores, $("$java" -version 2>&1 | head -1), user $user, $(date -u '+%Y-%m-%d %H:%M UTC')"
