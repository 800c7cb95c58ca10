#!/usr/bin/env bash
# What `traces` costs beside the OpenTelemetry Java agent: the `traced` workload (Jetty 12's core API, /inline and
# /pooled, about 4 ms of CPU a request) under the Java agent, with mixflame at 10 ms without and with `traces`, and the
# agent alone; a client of two threads asks the endpoints in turn, 10 s of warm-up, then 20 s counted. Rounds are
# interleaved. Prints one Markdown row per run: requests a second, and mixflame's per-sample cost and the traces note.
#
# Usage, after `mvn -q -DskipTests package`:
#   examples/scripts/traces-cost.sh [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
target=$root/examples/target
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/Client.java" <<'JAVA'
import java.net.URI; import java.net.http.*; import java.util.concurrent.atomic.AtomicLong;
public class Client { public static void main(String[] a) throws Exception {
  int port = Integer.parseInt(a[0]); long warm = Long.parseLong(a[1]) * 1_000_000_000L, measure = Long.parseLong(a[2]) * 1_000_000_000L;
  HttpClient c = HttpClient.newHttpClient(); AtomicLong counted = new AtomicLong(); long start = System.nanoTime();
  Thread[] ts = new Thread[2];
  for (int t = 0; t < ts.length; t++) { ts[t] = new Thread(() -> { long n = 0; while (true) { long now = System.nanoTime(); if (now - start > warm + measure) return;
    try { c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + (n++ % 2 == 0 ? "/inline" : "/pooled"))).build(), HttpResponse.BodyHandlers.discarding());
      if (System.nanoTime() - start > warm) counted.incrementAndGet(); } catch (Exception e) { return; } } }); ts[t].start(); }
  for (Thread t : ts) t.join();
  System.out.printf("%.1f%n", counted.get() / (measure / 1e9)); } }
JAVA
run() { # $1: label, $2: mixflame options or empty
  local log="$work/app.log" agent=()
  [ -n "$2" ] && agent=("-javaagent:$root/agent/target/mixflame.jar=$2,file=$work/p.collapsed")
  java -javaagent:"$target/workloads/opentelemetry-javaagent.jar" -Dotel.traces.exporter=none \
    -Dotel.metrics.exporter=none -Dotel.logs.exporter=none "${agent[@]}" \
    -cp "$target/mixflame-examples.jar:$target/workloads/jetty/*" io.mixflame.examples.Examples traced --seconds 45 \
    > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 120); do grep -q '^port ' "$log" && break; sleep 0.5; done
  local port rate cost note
  port=$(grep -o '^port [0-9]*' "$log" | cut -d' ' -f2)
  rate=$(java "$work/Client.java" "$port" 10 20)
  kill "$pid"; wait "$pid" 2>/dev/null || true
  cost=$(grep -o '[0-9.]* µs p50 / [0-9.]* µs p99 per sample' "$log" | head -1 || true)
  note=$(grep -o 'traces: .*' "$log" | head -1 || true)
  echo "| $1 | $rate | ${cost:-–} | ${note:-–} |"
}
echo "| run | requests/s | mixflame per sample | traces note |"
echo "| --- | --- | --- | --- |"
for r in $(seq 1 "$rounds"); do
  run "agent alone ($r)" ""
  run "mixflame ($r)" "start,interval=10ms"
  run "mixflame, traces ($r)" "start,interval=10ms,traces"
done
printf '\n%s, %s cores, %s, %s\n' "$(uname -r)" "$(nproc)" "$(java -version 2>&1 | head -1)" \
  "$(date -u '+%Y-%m-%d %H:%M UTC')"
