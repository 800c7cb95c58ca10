/**
 * Pushing each period of a looping profile to fleet backends: an OpenTelemetry collector ({@code otlp=URL}, the
 * profiles signal as protobuf) and Grafana Pyroscope ({@code pyroscope=URL}, one gzip'd pprof per event).
 *
 * <p>{@link io.mixflame.agent.push.PushOptions} holds what the agent's options say: the targets, who the profiles
 * are of ({@code service=}, {@code tags=}) and how to authenticate ({@code authtoken=}, {@code authuser=},
 * {@code authpassword=}, or the {@code MIXFLAME_AUTH_*} environment variables). A
 * {@link io.mixflame.agent.push.ProfilePusher} takes each period's profiles from the profiler's timer and sends them
 * from a daemon thread of its own per target, started at the first period, with {@link java.net.HttpURLConnection}
 * (the {@code java.net.http} module may be missing from a jlinked runtime).
 *
 * <p>Pushing must never hurt the service: each target keeps a few periods in a bounded queue and drops the oldest
 * when it is full, failures are retried with a jittered exponential backoff (honouring {@code Retry-After}), an
 * outage is logged in one line when it starts and one when it ends, and at exit the last period gets a short,
 * bounded wait. Secrets never reach a log line, an exception or a {@code toString()}.
 */
package io.mixflame.agent.push;
