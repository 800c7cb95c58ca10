#!/usr/bin/env bash
# A harsher pool than overload.sh's: 350 workers wanting 50 times the cores (each burns 2 ms and sleeps 5) for 10 s,
# half of them allocating as they burn on a 64 MiB heap, so that the JVM collects several times a second and stands
# at safepoints about half of the time, the profiler's Java threads with it. Profiled with the perf engine at 10 ms,
# on the JDKs given, as root and as nobody. Prints one Markdown row per run: samples, lost and dropped, [unknown],
# the samples under a worker's kernel name (15 bytes) instead of its Java name, the walk lag, and the collections.
#
# Usage, after `mvn -q -DskipTests package`:
#   examples/scripts/gc-pool.sh JAVA_HOME...
set -euo pipefail
source "$(dirname "$0")/pool-workdir.sh"
[ $# -gt 0 ] || set -- "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"

echo "| JDK | user | samples | lost, dropped | [unknown] | samples under a kernel name | walk lag | collections |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for home in "$@"; do
  for user in root nobody; do
    out="$work/$(basename "$home")-$user"
    prefix=()
    [ "$user" = root ] || prefix=(runuser -u "$user" --)
    "${prefix[@]}" "$home/bin/java" -Xmx64m \
      -javaagent:"$work/mixflame.jar"=start,event=cpu,engine=perf,interval=10ms,threads,file="$out.collapsed" \
      -cp "$work/classes" io.mixflame.testapp.ServicePoolApp 350 10 2000 5 0 half > "$out.stdout" 2>&1
    version=$("$home/bin/java" -version 2>&1 | head -1 | sed 's/.*version "\([^"]*\)".*/\1/')
    awk -v jdk="$version" -v user="$user" -v gc="$(sed -n 's/^gc //p' "$out.stdout")" '
      /^# note: [0-9]+ samples/ { match($0, /[0-9]+ lost, [0-9]+ dropped/); ld = substr($0, RSTART, RLENGTH)
                                  if (match($0, /walked [0-9.]+ µs p50 \/ [0-9.]+ µs p99/)) lag = substr($0, RSTART + 7, RLENGTH - 7) }
      /^#/ || NF == 0 { next }
      { n = $NF; all += n; unknown += /\[unknown\]/ ? n : 0; kernel += /^\[service-pool-(wo|al) / ? n : 0 }
      END { printf "| %s | %s | %d | %s | %d | %d | %s | %s |\n", jdk, user, all, ld, unknown, kernel, lag, gc }' \
      "$out.collapsed"
  done
done
printf '\n%s, %s cores, %s\n' "$(uname -r)" "$(nproc)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
