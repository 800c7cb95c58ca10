#!/bin/bash
# What pushing costs: the `service --load` example (an HTTP service with eight client threads, cpu, alloc and lock
# profiled, threads named) with loop=60s pushing each period to a loopback receiver as OTLP and to Pyroscope, and
# writing it as JFR for comparison. Prints, per period, the bytes of each push and of the JFR file, and at the end
# the CPU time of the profiler's push threads (encoding and sending) and its cost-note line.
# Usage: examples/scripts/push-cost.sh [seconds (190)]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-190}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cat > "$work/receiver.py" <<'EOF'
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get('Content-Length', 0)); self.rfile.read(n)
        print(f"{time.time():.0f} {self.path.split('?')[0]} {n}", flush=True)
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
s = http.server.HTTPServer(('127.0.0.1', 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
EOF
python3 "$work/receiver.py" > "$work/received.txt" &
until [ -s "$work/received.txt" ]; do sleep 0.1; done
port=$(head -1 "$work/received.txt")
java "-javaagent:$root/agent/target/mixflame.jar=start,event=cpu,alloc,lock,threads,loop=60s,service=push-cost,otlp=http://127.0.0.1:$port,pyroscope=http://127.0.0.1:$port,file=$work/p.jfr" \
  -jar "$root/examples/target/mixflame-examples.jar" service --load --threads 8 --seconds "$seconds" \
  > "$work/out.txt" 2>&1 &
pid=$!
push_cpu=0
while kill -0 "$pid" 2>/dev/null; do
  ticks=0
  for task in /proc/$pid/task/*; do
    if grep -q '^mixflame-push' "$task/comm" 2>/dev/null; then
      ticks=$((ticks + $(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null || echo 0)))
    fi
  done
  [ "$ticks" -gt "$push_cpu" ] && push_cpu=$ticks
  sleep 1
done
wait "$pid" || true
echo "received (time path bytes):"
tail -n +2 "$work/received.txt"
echo "JFR files (bytes):"
ls -l "$work"/p*.jfr | awk '{ print $5, $9 }'
echo "push threads' CPU before the exit: $((push_cpu * 10)) ms"
grep -oE 'pushes: .*' "$work/out.txt" | tail -1 || true
grep -F "[mixflame]" "$work/out.txt" | grep -vE "profiler cost" | tail -8 || true
