#!/bin/bash
# Where perf_events are refused (a seccomp filter that refuses perf_event_open with EACCES, as a container's default
# profile does): the `saturate` example's throughput with no profiler, mixflame's perf engine and async-profiler's
# perf-based cpu without the filter, and under the filter mixflame's timer engine (what engine=auto falls back to), its
# ptrace engine (engine=ptrace) and async-profiler's CPU-timer fallback, at 10 ms and 1 ms, with two busy threads on
# two cores (saturated) and one (steady state, a core to spare). Prints one line per run: rounds per second after the
# first two windows, and the profiler's own cost lines (the timer handler's cost in the sampled thread, threads
# stopped per capture, helper CPU).
# Usage: examples/scripts/refused-perf-cost.sh [rounds (2)] [seconds per run (20)]
set -euo pipefail
source "$(dirname "$0")/pool-workdir.sh"
rounds=${1:-2}
seconds=${2:-20}
cp "$root/examples/target/mixflame-examples.jar" "$work/"
gcc -O1 -o "$work/deny" "$root/agent/src/test/resources/native/seccomp/deny.c"
run() { # label, threads, prefix..., ::, java options...
  local label=$1 threads=$2; shift 2
  local prefix=() ; while [ "$1" != "::" ]; do prefix+=("$1"); shift; done; shift
  local out="$work/out.txt"
  "${prefix[@]}" java "$@" -jar "$work/mixflame-examples.jar" saturate --threads "$threads" --seconds "$seconds" \
    --window 2 > "$out" 2>&1 || true
  local rate
  rate=$(awk '/saturate: window/ { if ($3+0 > 2) { n += $4; s += $7 } } END { if (s) printf "%.0f", n / s }' "$out")
  local cost samples
  cost=$(grep -oE 'in the sampled thread [0-9.]+ µs p50 / [0-9.]+ µs p99|threads stopped [0-9.]+ µs p50 / [0-9.]+ µs p99|profiler process [0-9.]+% of one core( \([0-9.]+% after the first 10 s\))?' "$out" | tr '\n' ';' || true)
  samples=$( (cat "$work"/*.collapsed 2>/dev/null || true) | awk '!/^#/ && NF { n += $NF } END { print n + 0 }')
  rm -f "$work"/*.collapsed
  echo "$label threads=$threads rounds/s=$rate samples=$samples $cost"
}
for r in $(seq "$rounds"); do
  for threads in 2 1; do
    run "none" "$threads" env ::
    for interval in 10ms 1ms; do
      run "perf-engine $interval" "$threads" env :: "-javaagent:$work/mixflame.jar=start,event=cpu,interval=$interval,file=$work/p.collapsed"
      run "timer-engine $interval" "$threads" "$work/deny" perf_event_open -- :: "-javaagent:$work/mixflame.jar=start,event=cpu,interval=$interval,file=$work/p.collapsed"
      run "ptrace-engine $interval" "$threads" "$work/deny" perf_event_open -- :: "-javaagent:$work/mixflame.jar=start,event=cpu,engine=ptrace,interval=$interval,file=$work/p.collapsed"
      run "async-profiler-cpu $interval" "$threads" env :: "-agentpath:$work/libasyncProfiler.so=start,event=cpu,interval=$interval,file=$work/a.collapsed,collapsed"
      run "async-profiler-timer $interval" "$threads" "$work/deny" perf_event_open -- :: "-agentpath:$work/libasyncProfiler.so=start,event=cpu,interval=$interval,file=$work/a.collapsed,collapsed"
    done
  done
done
