#!/bin/sh
# The benchmark harness (see BENCHMARKS.md): runs the example workloads under no profiler, async-profiler, JFR and
# mixflame and prints a markdown section. Build first: mvn -q -DskipTests package
#   examples/bench.sh [--quick] [--out FILE] [--repetitions N] [--mixflame-options engine=jfr] [--java HOME] [--work DIR]
set -eu
cd "$(dirname "$0")/.."
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp examples/target/mixflame-examples.jar \
    io.mixflame.examples.harness.Harness "$@"
