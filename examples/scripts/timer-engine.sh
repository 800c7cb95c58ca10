#!/bin/bash
# The timer engine (samples taken in each thread's own signal handler) beside async-profiler, judged by the CPU time
# the kernel counted for each thread (schedstat, printed by the test programs):
#  - pools of workers (2 ms of CPU, then 5 ms asleep) wanting 1, 5 and 50 times the cores, 10 ms, 8 s: as root
#    (mixflame's perf engine, async-profiler's perf-based cpu) and as nobody under a seccomp filter refusing
#    perf_event_open (mixflame's timer engine, async-profiler's CPU-timer fallback): samples against the intervals of
#    CPU the workers used (each less its last part interval), workers named of those with 3 intervals or more, lost;
#  - threads busy 100%, 50% and 25%, 10 ms, 8 s: each one's share of samples against its share of CPU time.
# Throughput at steady state and saturated: examples/scripts/refused-perf-cost.sh.
# Usage: examples/scripts/timer-engine.sh [rounds (1)]
set -euo pipefail
source "$(dirname "$0")/pool-workdir.sh"
rounds=${1:-1}
gcc -O1 -o "$work/deny" "$root/agent/src/test/resources/native/seccomp/deny.c"
cores=$(nproc)
judge() { # label, interval (ms), profile, program output
  python3 - "$@" <<'PY'
import re, sys, collections
label, interval, profile, out = sys.argv[1], float(sys.argv[2]) * 1e6, sys.argv[3], sys.argv[4]
samples = collections.Counter(); total = 0; lost = dropped = 0
for line in open(profile, encoding='utf-8', errors='replace'):
    m = re.search(r'# note: (\d+) samples, (\d+) lost, (\d+) dropped', line)
    if m: lost, dropped = int(m.group(2)), int(m.group(3))
    if line.startswith('#') or not line.strip(): continue
    n = int(line.rsplit(' ', 1)[1]); total += n
    r = re.match(r'\[(.+?) tid=\d+\]', line)
    if r: samples[r.group(1)] += n
cpu = {}
for line in open(out):
    if line.startswith('cpu '):
        _, name, c = line.split(); cpu[name] = int(c)
if any(n.startswith('duty-') for n in cpu):
    all_cpu = sum(cpu.values()); all_samples = sum(samples[n] for n in cpu) or 1
    shares = ', '.join('%s %.1f%% of samples / %.1f%% of CPU' % (n, 100.0 * samples[n] / all_samples,
                       100.0 * cpu[n] / all_cpu) for n in sorted(cpu, key=lambda n: -cpu[n]))
    print('%s: %s; samples %d for %.0f intervals of CPU' % (label, shares, all_samples, all_cpu / interval))
else:
    owed = sum(max(0.0, c / interval - 1) for c in cpu.values())
    qualifying = [n for n, c in cpu.items() if c >= 3 * interval]
    named = sum(1 for n in qualifying if samples[n] > 0)
    worker_samples = sum(v for k, v in samples.items() if k.startswith('service-pool-worker-'))
    print('%s: workers %d, samples %d of %.0f owed (%.0f%%), named %d of %d with 3+ intervals, lost %d, dropped %d'
          % (label, len(cpu), worker_samples, owed, 100.0 * worker_samples / max(1, owed), named, len(qualifying),
             lost, dropped))
PY
}
run() { # label, user, filtered (yes/no), agent option, program...
  local label=$1 user=$2 filtered=$3 agent=$4; shift 4
  local prefix=()
  [ "$user" != root ] && prefix+=(runuser -u "$user" --)
  [ "$filtered" = yes ] && prefix+=("$work/deny" perf_event_open --)
  rm -f "$work"/p.collapsed
  "${prefix[@]}" java "$agent" -cp "$work/classes" "$@" > "$work/out.txt" 2> "$work/err.txt" || true
  judge "$label" 10 "$work/p.collapsed" "$work/out.txt"
}
mixflame="-javaagent:$work/mixflame.jar=start,event=cpu,interval=10ms,threads,file=$work/p.collapsed"
asprof="-agentpath:$work/libasyncProfiler.so=start,event=cpu,interval=10ms,threads,collapsed,file=$work/p.collapsed"
for r in $(seq "$rounds"); do
  for times in 1 5 50; do
    workers=$((times * cores * 7 / 2))
    pool=(io.mixflame.testapp.ServicePoolApp "$workers" 8 2000 5)
    run "${times}x root, mixflame perf engine" root no "$mixflame" "${pool[@]}"
    run "${times}x root, async-profiler cpu" root no "$asprof" "${pool[@]}"
    run "${times}x container, mixflame timer engine" nobody yes "$mixflame" "${pool[@]}"
    run "${times}x container, async-profiler CPU timer" nobody yes "$asprof" "${pool[@]}"
  done
  duty=(io.mixflame.testapp.DutyCycleApp 8 100 50 25)
  run "duty cycle, root, mixflame perf engine" root no "$mixflame" "${duty[@]}"
  run "duty cycle, root, async-profiler cpu" root no "$asprof" "${duty[@]}"
  run "duty cycle, container, mixflame timer engine" nobody yes "$mixflame" "${duty[@]}"
  run "duty cycle, container, async-profiler CPU timer" nobody yes "$asprof" "${duty[@]}"
done
