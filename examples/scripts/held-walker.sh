#!/usr/bin/env bash
# Late walks over code the JIT frees: `churn` (classes defined in throwaway loaders, compiled, deoptimized and unloaded,
# a full GC twice a second) profiled with the perf engine at 10 ms for 10 s, while its walker is held back: after 2 s
# the walker thread is pinned to CPU 1 and made SCHED_IDLE, every other thread of the JVM pinned to CPU 0, and a busy
# loop holds CPU 1 for HELD seconds (an idle-class thread gets a CPU only when nothing else wants it), so that samples
# wait seconds to be walked while the code they ran in is freed and replaced; then the walker is an ordinary thread
# again. Prints one Markdown row per run: samples, [unknown], the payload's samples (its compiled code is what the JIT
# frees), the walk lag and what the code cache's history did (mixflame's note).
#
# Needs two CPUs or more. Usage, after `mvn -q -DskipTests package`:
#   examples/scripts/held-walker.sh [RUNS] [HELD]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
held=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| run | samples | [unknown] | payload samples | walk lag | code cache history |"
echo "| --- | --- | --- | --- | --- | --- |"
for i in $(seq 1 "$runs"); do
  out="$work/churn-$i.collapsed"
  java -XX:ReservedCodeCacheSize=16m \
    -javaagent:"$root/agent/target/mixflame.jar"=start,engine=perf,event=cpu,interval=10ms,threads,file="$out" \
    -jar "$root/examples/target/mixflame-examples.jar" churn --seconds 10 > "$work/churn-$i.log" 2>&1 &
  jvm=$!
  sleep 2
  walker=
  for task in /proc/"$jvm"/task/*; do
    if [ "$(cat "$task/comm" 2>/dev/null)" = mixflame-perf-w ]; then
      walker=${task##*/}
      taskset -p -c 1 "$walker" > /dev/null
      chrt -i -p 0 "$walker"
    else
      taskset -p -c 0 "${task##*/}" > /dev/null 2>&1 || true
    fi
  done
  timeout "$held" taskset -c 1 sh -c 'while :; do :; done' 2> /dev/null || true
  [ -n "$walker" ] && chrt -o -p 0 "$walker" 2> /dev/null || true
  wait "$jvm"
  awk -v run="$i" '
    /^# note: [0-9]+ samples/ { if (match($0, /walked [0-9.]+ µs p50 \/ [0-9.]+ µs p99/)) lag = substr($0, RSTART + 7, RLENGTH - 7) }
    /^# note: code cache history/ { history = $0; sub(/^# note: code cache history: /, "", history); sub(/ [0-9]+$/, "", history) }
    /^#/ || NF == 0 { next }
    { n = $NF; all += n; unknown += /\[unknown\]/ ? n : 0; payload += /ChurnPayload/ ? n : 0 }
    END { printf "| %d | %d | %.1f%% | %d | %s | %s |\n", run, all, all ? 100 * unknown / all : 0, payload,
            lag == "" ? "–" : lag, history == "" ? "not kept" : history }' "$out"
done
printf '\n%s, %s cores, %s, walker held %s s, %s\n' "$(uname -r)" "$(nproc)" "$(java -version 2>&1 | head -1)" \
  "$held" "$(date -u '+%Y-%m-%d %H:%M UTC')"
