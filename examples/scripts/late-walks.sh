#!/usr/bin/env bash
# Late walks: a pool of 250 threads doing short CRC32 bursts and 4-ms sleeps (about 8 times the cores here), run as a
# source file (`java Pool.java`, so the JIT compiles the compiler first), profiled with the perf engine for its 8 s at
# 10 ms. The walker falls seconds behind, and the workers end before the last of their samples are walked. Prints one
# Markdown row per run: samples, [unknown] (all threads, and the workers), workers named, the walk lag, and what the
# code cache's history did (mixflame's note).
#
# Usage, after `mvn -q -DskipTests package`:
#   examples/scripts/late-walks.sh [USER] [RUNS] [AGENT_JAR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
user=${1:-$(id -un)}
runs=${2:-5}
jar=${3:-$root/agent/target/mixflame.jar}
work=$(mktemp -d)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$jar" "$work/mixflame.jar"
cat > "$work/Pool.java" <<'JAVA'
import java.util.concurrent.*; import java.util.zip.CRC32;
public class Pool { public static void main(String[] a) throws Exception {
  int n = 250; ExecutorService ex = Executors.newFixedThreadPool(n, r -> { Thread t = new Thread(r); t.setName("pool-w" + t.getId()); return t; });
  long end = System.nanoTime() + 8_000_000_000L; byte[] b = new byte[4096];
  for (int i = 0; i < n; i++) ex.submit(() -> { CRC32 c = new CRC32(); while (System.nanoTime() < end) { for (int k = 0; k < 300; k++) c.update(b); try { Thread.sleep(4); } catch (InterruptedException e) { return; } } });
  ex.shutdown(); ex.awaitTermination(20, TimeUnit.SECONDS); } }
JAVA
chmod -R a+rX "$work"
as_user() { if [ "$user" = "$(id -un)" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }

echo "| run | samples | [unknown] | workers' [unknown] | workers named | walk lag | code cache history |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for i in $(seq 1 "$runs"); do
  (cd "$work" && as_user java -javaagent:"$work/mixflame.jar"=start,event=cpu,interval=10ms,threads,file="$work/p$i.collapsed" \
    Pool.java > "$work/p$i.log" 2>&1)
  awk -v run="$i" '
    /^# note: [0-9]+ samples/ { if (match($0, /walked [0-9.]+ µs p50 \/ [0-9.]+ µs p99/)) lag = substr($0, RSTART + 7, RLENGTH - 7) }
    /^# note: code cache history/ { history = $0; sub(/^# note: code cache history: /, "", history); sub(/ [0-9]+$/, "", history) }
    /^#/ || NF == 0 { next }
    { n = $NF; all += n; unknown += /\[unknown\]/ ? n : 0
      if (match($0, /^\[pool-w[0-9]+ /)) { w[substr($0, 2, RLENGTH - 2)] = 1; ws += n; wu += /\[unknown\]/ ? n : 0 } }
    END { named = 0; for (k in w) named++
          printf "| %d | %d | %.1f%% | %.1f%% | %d of 250 | %s | %s |\n", run, all, all ? 100 * unknown / all : 0,
            ws ? 100 * wu / ws : 0, named, lag == "" ? "–" : lag, history == "" ? "not kept" : history }' "$work/p$i.collapsed"
done
printf '\n%s, %s cores, %s, user %s, %s\n' "$(uname -r)" "$(nproc)" "$(java -version 2>&1 | head -1)" "$user" \
  "$(date -u '+%Y-%m-%d %H:%M UTC')"
