package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.engine.ProfilingEvent;
import io.mixflame.report.OutputFormat;
import io.mixflame.report.TextSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentOptionsTest {

    @Test
    void emptyOptionsStartACpuProfileWithDefaults() {
        AgentOptions o = AgentOptions.parse("");
        assertThat(o.action()).isEqualTo(AgentAction.START);
        assertThat(o.event()).isEqualTo(ProfilingEvent.CPU);
        assertThat(o.intervalNanos()).isEqualTo(10_000_000L);
        assertThat(o.file()).isEqualTo(AgentOptions.DEFAULT_FILE);
        assertThat(o.durationNanos()).isZero();
        assertThat(o.loopNanos()).isZero();
        assertThat(o.keep()).isEqualTo(AgentOptions.DEFAULT_KEEP);
        assertThat(o.engine()).isEqualTo(EngineChoice.AUTO);
        assertThat(o.threads()).isFalse();
    }

    @Test
    void everyOptionIsRead() {
        AgentOptions o = AgentOptions.parse("start,event=wall,interval=5ms,duration=30s,file=/tmp/p-%p.collapsed,"
                + "threads,include=alpha.*,exclude=gc,loop=60s,keep=3,engine=jfr,log=debug,title=My app");
        assertThat(o.event()).isEqualTo(ProfilingEvent.WALL);
        assertThat(o.intervalNanos()).isEqualTo(5_000_000L);
        assertThat(o.durationNanos()).isEqualTo(30_000_000_000L);
        assertThat(o.file()).isEqualTo("/tmp/p-%p.collapsed");
        assertThat(o.threads()).isTrue();
        assertThat(o.filter().include()).map(Object::toString).containsExactly("alpha.*");
        assertThat(o.filter().exclude()).map(Object::toString).containsExactly("gc");
        assertThat(o.loopNanos()).isEqualTo(60_000_000_000L);
        assertThat(o.keep()).isEqualTo(3);
        assertThat(o.engine()).isEqualTo(EngineChoice.JFR);
        assertThat(o.logLevel()).isEqualTo("debug");
        assertThat(o.title()).isEqualTo("My app");
    }

    @Test
    void cachedirIsAnAbsolutePathOrOff() {
        assertThat(AgentOptions.parse("").cacheDir()).isNull();
        assertThat(AgentOptions.parse("cachedir=/var/cache/mixflame").cacheDir()).isEqualTo("/var/cache/mixflame");
        assertThat(AgentOptions.parse("cachedir=off").cacheDir()).isEqualTo(AgentOptions.CACHE_OFF);
        assertThatThrownBy(() -> AgentOptions.parse("cachedir=relative/dir"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute");
        assertThatThrownBy(() -> AgentOptions.parse("cachedir=")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void labelsAreOffUnlessAskedAndSayWhichSources() {
        assertThat(AgentOptions.parse("").labels()).isEqualTo(io.mixflame.agent.labels.LabelOption.OFF);
        assertThat(AgentOptions.parse("labels").labels()).isEqualTo(io.mixflame.agent.labels.LabelOption.ALL);
        assertThat(AgentOptions.parse("labels=http").labels().http()).isTrue();
        assertThat(AgentOptions.parse("labels=http").labels().api()).isFalse();
        assertThat(AgentOptions.parse("labels=api").labels().http()).isFalse();
        assertThatThrownBy(() -> AgentOptions.parse("labels=tenant"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("labels=http");
    }

    @Test
    void wallDefaultsToTwentyMilliseconds() {
        assertThat(AgentOptions.parse("event=wall").intervalNanos()).isEqualTo(20_000_000L);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "interval=1000000|1000000",
        "interval=250us|250000",
        "interval=2s|2000000000",
        "interval=100000ns|100000"})
    void intervalUnits(String option, long nanos) {
        assertThat(AgentOptions.parse(option).intervalNanos()).isEqualTo(nanos);
    }

    @Test
    void bareDurationIsSeconds() {
        assertThat(AgentOptions.parse("duration=5").durationNanos()).isEqualTo(5_000_000_000L);
    }

    @Test
    void timeoutIsAsyncProfilersNameOfDuration() {
        assertThat(AgentOptions.parse("timeout=7").durationNanos()).isEqualTo(7_000_000_000L);
        assertThat(AgentOptions.parse("timeout=250ms").durationNanos()).isEqualTo(250_000_000L);
    }

    @ParameterizedTest
    @CsvSource({"loglevel=debug, debug", "loglevel=NONE, NONE", "log=warn, warn", "loglevel=error, error"})
    void loglevelIsAsyncProfilersNameOfLog(String option, String level) {
        assertThat(AgentOptions.parse(option).logLevel()).isEqualTo(level);
    }

    @Test
    void includeAndExcludeRepeatAndTakeGlobs() {
        AgentOptions o = AgentOptions.parse("include=java/*,include=*Server.handle,exclude=*park*,exclude=Gc");
        assertThat(o.filter().include()).map(Object::toString).containsExactly("java/*", "*Server.handle");
        assertThat(o.filter().include()).allMatch(io.mixflame.report.NamePattern::isGlob);
        assertThat(o.filter().exclude()).map(Object::toString).containsExactly("*park*", "Gc");
        assertThat(o.filter().exclude().get(1).isGlob()).isFalse();
    }

    @Test
    void framesArePlainUnlessAnnSigOrLibAreGiven() {
        assertThat(AgentOptions.parse("").style()).isEqualTo(io.mixflame.report.FrameStyle.DEFAULT);
        assertThat(AgentOptions.parse("ann,sig,lib").style())
                .isEqualTo(new io.mixflame.report.FrameStyle(true, true, true));
        assertThat(AgentOptions.parse("lib").reportOptions().style().libraries()).isTrue();
    }

    @Test
    void linesAreRecordedWhenAskedAndAlwaysForJfrAndPprofFiles() {
        assertThat(AgentOptions.parse("lines").style().lines()).isTrue();
        assertThat(AgentOptions.parse("lines").samplingSettings().lines()).isTrue();
        assertThat(AgentOptions.parse("file=a.collapsed").samplingSettings().lines()).isFalse();
        assertThat(AgentOptions.parse("").samplingSettings().lines()).isFalse();
        assertThat(AgentOptions.parse("file=a.jfr").samplingSettings().lines()).isTrue();
        assertThat(AgentOptions.parse("file=a.pb.gz").samplingSettings().lines()).isTrue();
        assertThat(AgentOptions.parse("file=a.otlp").samplingSettings().lines()).isTrue();
        assertThat(AgentOptions.parse("file=a.jfr").style().lines()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentOptions.parse("lines=yes"))
                .hasMessage("option 'lines' takes no value");
    }

    @Test
    void aFoldedFileIsCollapsedStacks() {
        assertThat(AgentOptions.parse("file=out.folded").file()).isEqualTo("out.folded");
    }

    @Test
    void actionsAreRecognised() {
        assertThat(AgentOptions.parse("stop").action()).isEqualTo(AgentAction.STOP);
        assertThat(AgentOptions.parse("dump,file=x.html").action()).isEqualTo(AgentAction.DUMP);
        assertThat(AgentOptions.parse("status").action()).isEqualTo(AgentAction.STATUS);
    }

    @Test
    void asyncProfilersCpuTimersAreCpuProfilesTakenInTheThreadsUnlessAnEngineIsGiven() {
        for (String timer : new String[] {"ctimer", "itimer"}) {
            AgentOptions o = AgentOptions.parse("start,event=" + timer);
            assertThat(o.event()).isEqualTo(ProfilingEvent.CPU);
            assertThat(o.engine()).isEqualTo(EngineChoice.TIMER);
        }
        assertThat(AgentOptions.parse("start,event=ctimer,engine=perf").engine()).isEqualTo(EngineChoice.PERF);
        assertThat(AgentOptions.parse("start,engine=jfr,event=itimer").engine()).isEqualTo(EngineChoice.JFR);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "frobnicate|unknown option 'frobnicate'",
        "interval=banana|interval: not a duration: 'banana'",
        "interval=10parsecs|unknown unit in '10parsecs'",
        "interval=1us|interval=1us is below the minimum of 100us",
        "event=cputime|unknown event 'cputime' (expected cpu, wall, alloc, lock, ctimer or itimer)",
        "alloc=lots|alloc=lots is not a size in bytes (such as 512k)",
        "alloc=2048g|alloc=2048g is not a size in bytes",
        "lock=soon|lock: not a duration: 'soon'",
        "total=yes|option 'total' takes no value",
        "event=cpu,event=alloc|option 'event' given twice",
        "include=(unclosed|include: '(unclosed' is not a valid regular expression",
        "exclude=|option 'exclude' needs a value",
        "loglevel=loud|unknown log level 'loud'",
        "timeout=soon|timeout: not a duration: 'soon'",
        "duration=5,timeout=6|option 'timeout' given twice (as duration or timeout)",
        "loglevel=info,log=warn|option 'log' given twice",
        "ann=yes|option 'ann' takes no value",
        "file=out.docx|file=out.docx: ",
        "keep=0|keep=0 is not a positive number",
        "loop=10ms|loop=10ms is below the minimum of 1s",
        "log=loud|unknown log level 'loud'",
        "engine=magic|unknown engine 'magic' (expected auto, perf, timer, jfr, helper or ptrace)",
        "start,stop|options name two actions: start and stop",
        "threads=yes|option 'threads' takes no value",
        "file=|option 'file' needs a value",
        "interval=1ms,interval=2ms|option 'interval' given twice",
        "otlp=ftp://collector|otlp= needs an http:// or https:// URL with a host",
        "pyroscope=pyroscope:4040|pyroscope= needs an http:// or https:// URL with a host",
        "otlp=http://c:4318?x=1|otlp= takes a base URL without a query or fragment",
        "otlp=http://c:4318,otlp=http://d:4318|option 'otlp' given twice",
        "otlp=|option 'otlp' needs a value",
        "service=|option 'service' needs a value",
        "tags=1x=y|tags=: key '1x' is not [A-Za-z_][A-Za-z0-9_.]*",
        "tags=region=e{u}|tags=: the value of region must be 1 to 256 characters without {}=,; or control",
        "authuser=svc|authtoken=, authuser= and authpassword= go with otlp= or pyroscope=",
        "otlp=http://c,authtoken=t,authuser=u,authpassword=p|authtoken= and authuser=/authpassword= are both given"})
    void badOptionsAreOneClearMessage(String options, String message) {
        assertThatThrownBy(() -> AgentOptions.parse(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasNoCause();
    }

    @Test
    void allocAndLockAreEventsOfTheirOwnBesideCpu() {
        AgentOptions combined = AgentOptions.parse("event=cpu,alloc=512k,lock=10ms");
        assertThat(combined.events()).containsExactly("cpu", "alloc", "lock");
        assertThat(combined.allocBytes()).isEqualTo(512 * 1024);
        assertThat(combined.lockNanos()).isEqualTo(10_000_000L);
        assertThat(combined.total()).isFalse();

        AgentOptions alloc = AgentOptions.parse("event=alloc");
        assertThat(alloc.event()).isNull();
        assertThat(alloc.events()).containsExactly("alloc");
        assertThat(alloc.allocBytes()).isZero();
        assertThat(alloc.lockNanos()).isEqualTo(io.mixflame.engine.jfr.JdkEventSettings.OFF);

        AgentOptions lock = AgentOptions.parse("event=lock,total");
        assertThat(lock.events()).containsExactly("lock");
        assertThat(lock.lockNanos()).isEqualTo(AgentOptions.DEFAULT_LOCK_NANOS);
        assertThat(lock.total()).isTrue();
        // A bare number is nanoseconds, as async-profiler reads lock=N.
        assertThat(AgentOptions.parse("lock=5000").lockNanos()).isEqualTo(5_000L);
        assertThat(AgentOptions.parse("event=alloc,alloc=1m").allocBytes()).isEqualTo(1 << 20);
        assertThat(AgentOptions.parse("alloc,event=wall").events()).containsExactly("wall", "alloc");
        assertThat(AgentOptions.parse("").events()).containsExactly("cpu");
    }

    @Test
    void intervalHasAnUpperBound() {
        assertThat(AgentOptions.parse("interval=10s").intervalNanos()).isEqualTo(10_000_000_000L);
        assertThatThrownBy(() -> AgentOptions.parse("interval=9223372036854775807"))
                .hasMessage("interval=9223372036854775807 is above the maximum of 10s");
        assertThatThrownBy(() -> AgentOptions.parse("interval=11s")).hasMessage("interval=11s is above the maximum of 10s");
    }

    @Test
    void pushTargetsLoopEveryMinuteAndWriteFilesOnlyWhenAsked() {
        AgentOptions push = AgentOptions.parse("otlp=http://collector:4318/,pyroscope=https://pyroscope.example/base");
        assertThat(push.push().otlp().base()).isEqualTo("http://collector:4318");
        assertThat(push.push().pyroscope().base()).isEqualTo("https://pyroscope.example/base");
        assertThat(push.loopNanos()).isEqualTo(AgentOptions.DEFAULT_PUSH_LOOP_SECONDS * 1_000_000_000L);
        assertThat(push.writesFiles()).as("push only").isFalse();
        assertThat(push.recordsLines()).as("pprof and OTLP show lines").isTrue();

        AgentOptions both = AgentOptions.parse("otlp=http://collector:4318,loop=10s,file=p-%t.otlp");
        assertThat(both.loopNanos()).isEqualTo(10_000_000_000L);
        assertThat(both.writesFiles()).isTrue();

        AgentOptions none = AgentOptions.parse("");
        assertThat(none.push().pushes()).isFalse();
        assertThat(none.writesFiles()).isTrue();
        assertThat(none.loopNanos()).isZero();
    }

    @Test
    void serviceAndTagsNameTheProfilesOfPushesAndOtlpFiles() {
        AgentOptions o = AgentOptions.parse("service=check out,tags=region=eu;tier=web,file=a.otlp");
        assertThat(o.push().serviceName()).isEqualTo("check_out");
        assertThat(o.push().tags()).containsExactly(Map.entry("region", "eu"), Map.entry("tier", "web"));
        assertThat(o.push().pushes()).isFalse();
        assertThat(o.recordsLines()).isTrue();
        assertThat(o.push().resource().attributes()).containsEntry("region", "eu").containsKey("process.pid");
        assertThat(AgentOptions.parse("").push().serviceName()).matches("[A-Za-z0-9._-]+");
    }

    @Test
    void secretsAppearInNoMessageNoToStringAndNoLoggedOptions() {
        String secret = "s3cr3t-Value";
        assertThat(AgentOptions.parse("otlp=http://c:4318,authtoken=" + secret).toString())
                .doesNotContain(secret).contains("bearer ***");
        assertThat(AgentOptions.parse("pyroscope=http://p:4040,authuser=svc,authpassword=" + secret).toString())
                .doesNotContain(secret).contains("basic ***");
        for (String bad : List.of("authtoken=" + secret, "authpassword=" + secret,
                "otlp=http://c,authtoken=" + secret + ",authtoken=" + secret,
                "otlp=http://svc:" + secret + "@c:4318", "pyroscope=http://c,authpassword=" + secret,
                "otlp=http://c,authtoken=" + secret + "\u0001x", "otlp=http://c,authtoken=" + secret + ",bogus")) {
            assertThatThrownBy(() -> AgentOptions.parse(bad))
                    .isInstanceOf(IllegalArgumentException.class).message().doesNotContain(secret);
        }
        assertThat(AgentEntry.shown("otlp=http://svc:" + secret + "@c,authtoken=" + secret + ",authpassword="
                + secret)).doesNotContain(secret).contains("authtoken=***");

        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            AgentEntry.handle("otlp=http://c:4318,authtoken=" + secret + ",bogus");
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("bad options", "authtoken=***", "unknown option 'bogus'").doesNotContain(secret);
    }

    @Test
    void echoedOptionsAreCut() {
        assertThat(AgentEntry.shown("start")).isEqualTo("start");
        String shown = AgentEntry.shown("x".repeat(100_000));
        assertThat(shown).hasSize(200 + "… (99800 more characters)".length()).endsWith("… (99800 more characters)");
    }

    @Test
    void asyncProfilersOutputWordsPickTheFormatWhateverTheFilesName() {
        assertThat(AgentOptions.parse("collapsed,file=x.txt").formatOf("x.txt")).isEqualTo(OutputFormat.COLLAPSED);
        assertThat(AgentOptions.parse("flamegraph,file=x.html").formatOf("x.html")).isEqualTo(OutputFormat.HTML);
        assertThat(AgentOptions.parse("tree,file=x.out").formatOf("x.out")).isEqualTo(OutputFormat.HTML);
        assertThat(AgentOptions.parse("jfr,file=x.bin").formatOf("x.bin")).isEqualTo(OutputFormat.JFR);
        assertThat(AgentOptions.parse("otlp,file=x.pb").formatOf("x.pb")).isEqualTo(OutputFormat.OTLP);
        assertThat(AgentOptions.parse("otlp=http://c:4318").push().pushes()).as("otlp=URL pushes").isTrue();
        AgentOptions collapsed = AgentOptions.parse("collapsed,file=x.html");
        assertThat(collapsed.formatOf(collapsed.file())).as("the word wins").isEqualTo(OutputFormat.COLLAPSED);
        assertThat(AgentOptions.parse("collapsed").file()).isEqualTo("mixflame-%p-%t.collapsed");
        assertThat(AgentOptions.parse("file=x.pb.gz").formatOf("x.pb.gz")).isEqualTo(OutputFormat.PPROF);
        assertThat(AgentOptions.parse("reverse").reportOptions().reverse()).isTrue();
        assertThatThrownBy(() -> AgentOptions.parse("collapsed,flamegraph"))
                .hasMessage("options name two output formats: collapsed and flamegraph");
        assertThatThrownBy(() -> AgentOptions.parse("file=x.out")).hasMessageStartingWith("file=x.out: ");
        assertThatThrownBy(() -> AgentOptions.parse("samples,total")).hasMessageContaining("two counters");
    }

    @Test
    void tracesAskForSpansAndANumberIsStillAsyncProfilersTextOutput() {
        assertThat(AgentOptions.parse("start").traces()).isEqualTo(io.mixflame.agent.labels.TraceOption.OFF);
        assertThat(AgentOptions.parse("traces").traces()).isEqualTo(io.mixflame.agent.labels.TraceOption.ROOT);
        assertThat(AgentOptions.parse("traces=all").traces()).isEqualTo(io.mixflame.agent.labels.TraceOption.ALL);
        assertThat(AgentOptions.parse("traces,file=x.collapsed").formatOf("x.collapsed"))
                .isEqualTo(OutputFormat.COLLAPSED);
        assertThat(AgentOptions.parse("traces").reportOptions().spanFrames()).isFalse();
        AgentOptions frames = AgentOptions.parse("spans=root");
        assertThat(frames.traces()).as("span frames need spans").isEqualTo(io.mixflame.agent.labels.TraceOption.ROOT);
        assertThat(frames.reportOptions().spanFrames()).isTrue();
        assertThat(AgentOptions.parse("traces=7").traces()).isEqualTo(io.mixflame.agent.labels.TraceOption.OFF);
        assertThatThrownBy(() -> AgentOptions.parse("traces=some")).hasMessageStartingWith("traces=some: expected");
        assertThatThrownBy(() -> AgentOptions.parse("spans=all")).hasMessageStartingWith("spans=all: expected");
    }

    @Test
    void summaryTracesAndFlatAskForTextAndSayWhatItHolds() {
        AgentOptions o = AgentOptions.parse("summary,traces=3,flat=5,file=x.txt");
        assertThat(o.formatOf(o.file())).isEqualTo(OutputFormat.TEXT);
        assertThat(o.reportOptions().text()).isEqualTo(new TextSummary(true, 3, 5));
        assertThat(AgentOptions.parse("traces=9").reportOptions().text())
                .isEqualTo(new TextSummary(false, 9, 0));
        assertThat(AgentOptions.parse("flat=7").file()).isEqualTo("mixflame-%p-%t.txt");
        assertThatThrownBy(() -> AgentOptions.parse("traces=0")).hasMessageContaining("not a positive number");
        assertThatThrownBy(() -> AgentOptions.parse("traces=3,jfr")).hasMessageContaining("two output formats");
    }

    @Test
    void asyncProfilersOptionsThatAreNotImplementedAreIgnoredAndGarbageIsStillRefused() {
        AgentOptions o = AgentOptions.parse("start,event=cpu-clock,cstack=vm,jstackdepth=2048,alluser,filter=1-3,"
                + "interval=10ms");
        assertThat(o.ignored()).containsExactly("cstack", "jstackdepth", "alluser", "filter");
        assertThat(o.event()).isEqualTo(ProfilingEvent.CPU);
        assertThat(AgentOptions.parse("start").ignored()).isEmpty();
        assertThatThrownBy(() -> AgentOptions.parse("start,frobnicate=1")).hasMessage("unknown option 'frobnicate'");
    }

    @Test
    void loopAndTimeoutTakeAsyncProfilersClockTimesAndDays() {
        AgentOptions midnight = AgentOptions.parse("loop=24:00:00,file=x-%t.jfr");
        assertThat(midnight.loopAtSecond()).isZero();
        assertThat(midnight.loopNanos()).isEqualTo(86_400_000_000_000L);
        assertThat(AgentOptions.parse("loop=10:30").loopAtSecond()).isEqualTo(37_800);
        assertThat(AgentOptions.parse("loop=2d").loopNanos()).isEqualTo(2 * 86_400_000_000_000L);
        assertThat(AgentOptions.parse("loop=1h").loopNanos()).isEqualTo(3_600_000_000_000L);
        assertThat(AgentOptions.parse("loop=30m").loopAtSecond()).isEqualTo(-1);
        AgentOptions stop = AgentOptions.parse("timeout=23:59:59");
        assertThat(stop.stopAtSecond()).isEqualTo(86_399);
        assertThat(stop.durationNanos()).isZero();
        for (String bad : List.of("loop=25:00", "loop=10:60", "loop=1:2:3:4", "loop=:30", "timeout=24:01", "loop=0d")) {
            assertThatThrownBy(() -> AgentOptions.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .message().doesNotContain("\n");
        }
        java.time.LocalDateTime now = java.time.LocalDateTime.of(2026, 11, 29, 23, 0, 0);
        assertThat(ClockTimes.nanosUntil(0, now)).isEqualTo(3_600_000_000_000L);
        assertThat(ClockTimes.nanosUntil(23 * 3600, now)).as("now: a day on").isEqualTo(86_400_000_000_000L);
    }
}
