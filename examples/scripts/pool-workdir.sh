# Sourced by the thread scripts: a work folder any user can read and write (removed at exit), holding the agent,
# the pool and duty-cycle programs of the agent's tests and async-profiler's library. Sets root and work.
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$root/agent/target/mixflame.jar" "$work/mixflame.jar"
mkdir -p "$work/classes/io/mixflame/testapp"
cp "$root"/agent/target/test-classes/io/mixflame/testapp/{ServicePoolApp,DutyCycleApp,ThreadCpu}*.class \
  "$work/classes/io/mixflame/testapp/"
unzip -q -o -j "$root/examples/target/profilers/async-profiler.jar" linux-x64/libasyncProfiler.so -d "$work"
chmod -R a+rX "$work"
