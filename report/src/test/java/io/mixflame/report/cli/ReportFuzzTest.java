package io.mixflame.report.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds report, diff and top with random bytes, cut and damaged profiles that mixflame wrote, huge counts and
 * huge lines, and checks what every run must keep to: a failure is one line without a trace of Java's
 * exceptions, the exit status is one CommandFailure documents, and no partial or temporary output is left.
 * The inputs come from a fixed seed, so a failure repeats.
 */
class ReportFuzzTest {

    private static final long SEED = 13;
    private static final List<String> JAVA_TRACES =
            List.of("java.", "Exception", "Error:", "For input string", "\tat ", "at io.mixflame", "one.convert");

    @TempDir
    Path dir;

    private Path out;
    private Path good;
    private byte[] goodCollapsed;
    private byte[] goodHtml;
    private int runs;

    @BeforeEach
    void writeRealProfiles() throws IOException {
        out = Files.createDirectory(dir.resolve("out"));
        StringBuilder text = new StringBuilder("# mixflame engine=jfr event=cpu interval=10ms samples=0 0\n");
        Random random = new Random(SEED);
        for (int i = 0; i < 200; i++) {
            text.append("[main tid=1];app/Server.handle_[j];app/X.<init>_[i];").append("f").append(random.nextInt(50))
                    .append(";g").append(i % 7).append("\u2028é ").append(1 + random.nextInt(1000)).append('\n');
        }
        good = Files.writeString(dir.resolve("good.collapsed"), text);
        goodCollapsed = Files.readAllBytes(good);
        Path html = dir.resolve("good.html");
        assertThat(CliRun.of(ReportCommand::run, good.toString(), html.toString()).status()).isZero();
        goodHtml = Files.readAllBytes(html);
    }

    @Test
    void everyRunEndsCleanOnDamagedInput() throws IOException {
        Random random = new Random(SEED);
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            inputs.add(randomBytes(random, random.nextInt(4096)));
            inputs.add(Arrays.copyOf(goodCollapsed, random.nextInt(goodCollapsed.length)));
            inputs.add(Arrays.copyOf(goodHtml, random.nextInt(goodHtml.length)));
            inputs.add(damaged(random, random.nextBoolean() ? goodCollapsed : goodHtml));
        }
        inputs.add(hugeCounts());
        inputs.add("a;b 9223372036854775807\na;c 2\n".getBytes(StandardCharsets.UTF_8));
        inputs.add("a;b 9223372036854775807\nd 0\n".getBytes(StandardCharsets.UTF_8));
        inputs.add(new byte[0]);

        for (int i = 0; i < inputs.size(); i++) {
            String extension = i % 3 == 2 ? ".html" : ".collapsed";
            Path in = Files.write(dir.resolve("in" + i + extension), inputs.get(i));
            runAll(in, "input " + i);
        }
        assertThat(runs).isEqualTo(inputs.size() * 6);
    }

    @Test
    void memoryStaysBoundedInASmallHeap() throws Exception {
        List<Path> inputs = new ArrayList<>();
        inputs.add(Path.of("/dev/zero"));
        // Past the bound of one line, with no line break and with one.
        inputs.add(Files.write(dir.resolve("long.collapsed"), repeat('a', 9 << 20)));
        inputs.add(Files.write(dir.resolve("long.html"), concat("<!DOCTYPE html>\n<h1>".getBytes(
                StandardCharsets.US_ASCII), repeat('x', 9 << 20), "\n".getBytes(StandardCharsets.US_ASCII))));
        // Within it: a stack of 2048 frames of 1 KB names, and one of 16 384 frames.
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 2048; i++) {
            deep.append(i == 0 ? "" : ";").append(i).append("x".repeat(1020));
        }
        deep.append(" 5\n");
        for (int i = 0; i < 16_384; i++) {
            deep.append(i == 0 ? "" : ";").append("d").append(i);
        }
        deep.append(" 9223372036854775000\n");
        inputs.add(Files.writeString(dir.resolve("deep.collapsed"), deep));

        // One JVM a run, so each input meets two of the commands.
        List<List<String>> all = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            List<List<String>> commands = commands(inputs.get(i));
            all.add(commands.get(0));
            all.add(commands.get(i % 2 == 0 ? 5 : 4));
        }
        for (List<String> args : all) {
            CliRun run = ChildCli.run(dir.resolve("logs"), "64m", args);
            String what = "child " + args;
            assertThat(run.err()).as(what).doesNotContain("OutOfMemoryError");
            assertThat(run.status()).as(what + "; err: " + run.err()).isIn(0, 2);
            checkRun(run, args.get(0), what);
        }
        assertThat(CliRun.of(TopCommand::run, dir.resolve("deep.collapsed").toString()).status()).isZero();
    }

    private void runAll(Path in, String what) throws IOException {
        for (List<String> args : commands(in)) {
            List<String> rest = args.subList(1, args.size());
            CliRun run = switch (args.get(0)) {
                case "report" -> CliRun.of(ReportCommand::run, rest.toArray(String[]::new));
                case "diff" -> CliRun.of(DiffCommand::run, rest.toArray(String[]::new));
                default -> CliRun.of(TopCommand::run, rest.toArray(String[]::new));
            };
            checkRun(run, args.get(0), what + " " + args);
            if (run.status() == 0 && args.get(0).equals("top")) {
                assertThat(run.out()).as("shares and counts of " + what).doesNotContainPattern(" -\\d");
            }
            runs++;
        }
    }

    /** Every command on this input, writing into the output directory. */
    private List<List<String>> commands(Path in) {
        String input = in.toString();
        return List.of(
                List.of("report", input, out.resolve("r.html").toString()),
                List.of("report", input, out.resolve("r.collapsed").toString()),
                List.of("report", input, out.resolve("r.pb.gz").toString()),
                List.of("diff", input, good.toString(), out.resolve("d.html").toString()),
                List.of("diff", good.toString(), input, out.resolve("d.html").toString()),
                List.of("top", input, "5"));
    }

    private void checkRun(CliRun run, String command, String what) throws IOException {
        String context = what + "; err: " + run.err();
        assertThat(run.status()).as(context).isIn(0, 1, 2);
        for (String line : run.errLines()) {
            assertThat(line).as(context).startsWith("mixflame " + command + ": ");
            for (String trace : JAVA_TRACES) {
                assertThat(line).as(context).doesNotContain(trace);
            }
        }
        try (Stream<Path> files = Files.list(out)) {
            List<String> left = files.map(p -> p.getFileName().toString()).toList();
            assertThat(left).as(context).noneMatch(name -> name.contains(".tmp-"));
            if (run.status() != 0) {
                assertThat(run.errLines()).as(context).hasSize(1);
                assertThat(left).as("output of a failed run; " + context).isEmpty();
            }
        }
        try (Stream<Path> files = Files.list(out)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        for (int i = 0; i < length; i += 1 + random.nextInt(80)) {
            bytes[i] = '\n';
        }
        return bytes;
    }

    /** A real profile with a few bytes overwritten, some by characters that matter to the formats. */
    private static byte[] damaged(Random random, byte[] real) {
        byte[] bytes = real.clone();
        byte[] special = {';', ' ', '\n', '\'', '\\', '<', '(', ',', ')', '0', '9', '-', 0, (byte) 0xff};
        for (int i = 0; i < 1 + random.nextInt(20); i++) {
            bytes[random.nextInt(bytes.length)] = random.nextBoolean()
                    ? special[random.nextInt(special.length)] : (byte) random.nextInt(256);
        }
        return bytes;
    }

    private static byte[] hugeCounts() {
        return String.join("\n", "a;b 9223372036854775807", "a;b 1", "c -1", "d 99999999999999999999",
                "e 1e9", "f 0x10", "g +5", "h 00000000000000000000000000000000001", "").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] repeat(char c, int n) {
        byte[] bytes = new byte[n];
        Arrays.fill(bytes, (byte) c);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
