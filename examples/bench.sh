#!/bin/sh
# The benchmark harness (see BENCHMARKS.md): runs the example workloads under no profiler, async-profiler, JFR and
# mixflame, prints a markdown report and puts it in BENCHMARKS.md between <!-- harness:begin --> and
# <!-- harness:end --> (left as it was when a run failed). About 18 minutes on 2 cores. Build first:
#   mvn -q -DskipTests package
#   examples/bench.sh [--quick] [--out FILE] [--repetitions N] [--mixflame-options engine=jfr] [--java HOME] [--work DIR]
# Extra arguments go to the harness; a later --benchmarks FILE replaces the default.
# One issue's study alone, with a report of its own (not written into BENCHMARKS.md):
#   java -cp examples/target/mixflame-examples.jar io.mixflame.examples.harness.Harness --only jni|cost|alloclock|labels [--out FILE]
# (cost: issue 24's short job, saturated work and 90-s steady state, about 16 minutes; labels: the service with and
# without labels, issue 26, about 2 minutes).
set -eu
cd "$(dirname "$0")/.."
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp examples/target/mixflame-examples.jar \
    io.mixflame.examples.harness.Harness --benchmarks BENCHMARKS.md "$@"
