package io.mixflame.report.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.report.TestProfiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

    @TempDir
    Path dir;

    private Path in;

    @BeforeEach
    void writeInput() throws IOException {
        in = Files.writeString(dir.resolve("in.collapsed"), """
                # mixflame engine=jfr event=cpu interval=10ms samples=10 0
                [main tid=1];app/Server.handle_[j];java/util/HashMap.get_[i] 6
                [main tid=1];app/Server.handle_[j];app/Db.query_[0] 3
                [main tid=1];app/Gc.run_[j] 1
                """);
    }

    private CliRun report(String... args) {
        return CliRun.of(ReportCommand::run, args);
    }

    private String path(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void convertsToHtml() throws IOException {
        CliRun run = report(in.toString(), path("out.html"));

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        String html = Files.readString(dir.resolve("out.html"));
        assertThat(html).contains("<h1>mixflame: cpu profile (jfr engine), 10 samples</h1>");
        assertThat(TestProfiles.parseHtml(html)).containsOnly(
                entry("[main tid=1];app/Server.handle_[j];java/util/HashMap.get_[i]", 6L),
                entry("[main tid=1];app/Server.handle_[j];app/Db.query_[0]", 3L),
                entry("[main tid=1];app/Gc.run_[j]", 1L));
    }

    @Test
    void convertsToPprof() throws IOException {
        CliRun run = report(in.toString(), path("out.pb.gz"));

        assertThat(run.status()).isZero();
        byte[] raw = new GZIPInputStream(Files.newInputStream(dir.resolve("out.pb.gz"))).readAllBytes();
        assertThat(raw).isNotEmpty();
    }

    @Test
    void convertsToCollapsedWithOptions() throws IOException {
        CliRun run = report(in.toString(), path("out.collapsed"), "--include", "Server", "--exclude=HashMap",
                "--reverse", "--title", "ignored for collapsed");

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(Files.readAllLines(dir.resolve("out.collapsed"))).containsExactly(
                "# mixflame engine=jfr event=cpu interval=10ms samples=3 0",
                "[main tid=1];app/Db.query;app/Server.handle 3");
    }

    @Test
    void annSigAndLibOptionsSpellFramesAsAsyncProfilerDoes() throws IOException {
        Path cxx = dir.resolve("cxx.collapsed");
        Files.writeString(cxx, "app/Server.handle_[0];JavaCalls::call(JavaValue*, Thread*);qsort 2\n");

        assertThat(report(cxx.toString(), path("plain.collapsed")).status()).isZero();
        assertThat(report(cxx.toString(), path("ann.collapsed"), "--ann", "--sig", "--lib").status()).isZero();

        assertThat(Files.readAllLines(dir.resolve("plain.collapsed"))).last()
                .isEqualTo("app/Server.handle;JavaCalls::call;qsort 2");
        // A collapsed file names no modules, so --lib has nothing to prefix.
        assertThat(Files.readAllLines(dir.resolve("ann.collapsed"))).last()
                .isEqualTo("app/Server.handle_[0];JavaCalls::call(JavaValue*, Thread*);qsort 2");
    }

    @Test
    void linesAreShownWithLinesAndAddedUpWithout() throws IOException {
        Path withLines = dir.resolve("lines.collapsed");
        Files.writeString(withLines, "app/Main.main:14_[0];app/Work.loop:23_[j] 5\n"
                + "app/Main.main:14_[0];app/Work.loop:27_[j] 3\n");

        assertThat(report(withLines.toString(), path("kept.jfr")).status()).isZero();
        assertThat(report(path("kept.jfr"), path("shown.collapsed"), "--lines").status()).isZero();
        assertThat(report(path("kept.jfr"), path("merged.collapsed")).status()).isZero();

        assertThat(Files.readAllLines(dir.resolve("shown.collapsed"))).containsSubsequence(
                "app/Main.main:14;app/Work.loop:23 5", "app/Main.main:14;app/Work.loop:27 3");
        assertThat(Files.readAllLines(dir.resolve("merged.collapsed"))).last().isEqualTo("app/Main.main;app/Work.loop 8");
    }

    @Test
    void includeAndExcludeRepeatAndTakeGlobs() throws IOException {
        Path many = dir.resolve("many.collapsed");
        Files.writeString(many, String.join("\n", "app/A.run;app/A.work 1", "app/B.run;app/B.work 2",
                "app/C.run;app/C.work 4", "lib/D.run;app/D.work 8", ""));

        CliRun run = report(many.toString(), path("f.collapsed"), "--include", "app/A.*", "--include=*B.run",
                "--include", "app/D*", "--include", "app/C.run", "--exclude", "*D.work", "--exclude=C\\.w");

        assertThat(run.status()).isZero();
        assertThat(Files.readAllLines(dir.resolve("f.collapsed")).stream().skip(1))
                .containsExactly("app/A.run;app/A.work 1", "app/B.run;app/B.work 2");
    }

    @Test
    void titleOptionReachesTheHtml() throws IOException {
        CliRun run = report("--title", "checkout", in.toString(), path("out.html"));

        assertThat(run.status()).isZero();
        assertThat(Files.readString(dir.resolve("out.html"))).contains("<h1>checkout — engine jfr</h1>");
    }

    @Test
    void malformedLinesAreWarningsAndTheRestConverts() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.collapsed"), "a;b 3\nbroken\nc x\nc 2\n");

        CliRun run = report(bad.toString(), path("out.collapsed"));

        assertThat(run.status()).isZero();
        assertThat(run.errLines()).containsExactly(
                "mixflame report: " + bad + " line 2: no sample count (expected 'frame;frame;... count')",
                "mixflame report: " + bad + " line 3: sample count 'x' is not a whole number");
        assertThat(Files.readAllLines(dir.resolve("out.collapsed"))).contains("a;b 3", "c 2");
    }

    @Test
    void inputWithNoReadableStackIsMalformed() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.collapsed"), "broken\nalso broken\n");

        String line = report(bad.toString(), path("out.html")).assertBadInput();

        assertThat(line).startsWith("mixflame report: " + bad).contains("line 1").contains("1 more");
        assertThat(dir.resolve("out.html")).doesNotExist();
    }

    @Test
    void missingInput() {
        String line = report(path("nope.collapsed"), path("out.html")).assertBadInput();

        assertThat(line).isEqualTo("mixflame report: " + path("nope.collapsed") + ": no such file");
        assertThat(dir.resolve("out.html")).doesNotExist();
    }

    @Test
    void unreadableInput() throws IOException {
        // Tests may run as root, who can read any file; a directory cannot be read as a file by anyone.
        Path unreadable = Files.createDirectory(dir.resolve("dir.collapsed"));

        String line = report(unreadable.toString(), path("out.html")).assertBadInput();

        assertThat(line).contains(unreadable.toString()).contains("is a directory");
    }

    @Test
    void binaryInput() throws IOException {
        Path binary = Files.write(dir.resolve("bin.collapsed"), new byte[] {(byte) 0xc3, 0x28, '\n'});

        assertThat(report(binary.toString(), path("out.html")).assertBadInput()).contains("not UTF-8");
    }

    @Test
    void unknownOutputExtension() {
        String line = report(in.toString(), path("out.svg")).assertBadInput();

        assertThat(line).startsWith("mixflame report: ").contains("out.svg").contains(".html");
        assertThat(dir.resolve("out.svg")).doesNotExist();
    }

    @Test
    void missingOutputDirectory() {
        String line = report(in.toString(), path("no/such/out.html")).assertBadInput();

        assertThat(line).contains("does not exist");
    }

    @Test
    void badRegex() {
        String line = report(in.toString(), path("out.html"), "--include", "[unclosed").assertBadInput();

        assertThat(line).startsWith("mixflame report: --include '[unclosed' is not a valid regular expression");
        assertThat(dir.resolve("out.html")).doesNotExist();
    }

    @Test
    void wrongArityPrintsTheUsage() {
        assertThat(report().assertBadInput()).isEqualTo(ReportCommand.USAGE);
        assertThat(report(in.toString()).assertBadInput()).isEqualTo(ReportCommand.USAGE);
        assertThat(report(in.toString(), path("a.html"), path("b.html")).assertBadInput())
                .isEqualTo(ReportCommand.USAGE);
    }

    @Test
    void unknownOptionOrMissingValue() {
        assertThat(report(in.toString(), path("out.html"), "--colour").assertBadInput())
                .contains("unknown option --colour");
        assertThat(report(in.toString(), path("out.html"), "--title").assertBadInput())
                .contains("--title needs a value");
    }

    @Test
    void aWriteErrorNamesTheOutputAndTheReason() {
        CliRun run = report(in.toString(), "/proc/mixflame-test.html");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("mixflame report: could not write /proc/mixflame-test.html: ")
                .doesNotContain(".tmp-");
    }
}
