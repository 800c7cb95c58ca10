package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.profile.Profile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileFilesTest {

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private static final Profile PROFILE = TestProfiles.with(TestProfiles.JFR_CPU)
            .addJava(6, "main;app/A.x;app/A.y")
            .addJava(4, "main;app/B.z")
            .build();

    @Test
    void formatFollowsTheExtension() throws IOException {
        for (String name : List.of("p.collapsed", "p.txt", "p.html", "p.pb.gz", "p.pprof")) {
            ProfileFiles.write(PROFILE, dir.resolve(name), ReportOptions.DEFAULT);
        }

        assertThat(Files.readString(dir.resolve("p.collapsed"))).startsWith("# mixflame engine=jfr");
        assertThat(Files.readString(dir.resolve("p.txt"))).startsWith("# mixflame engine=jfr");
        assertThat(Files.readString(dir.resolve("p.html"))).startsWith("<!DOCTYPE html>");
        assertThat(PprofWriterTest.decode(Files.readAllBytes(dir.resolve("p.pb.gz"))).sampleValues).hasSize(2);
        assertThat(PprofWriterTest.decode(Files.readAllBytes(dir.resolve("p.pprof"))).sampleValues).hasSize(2);
    }

    @Test
    void anUnknownExtensionWritesNothing() {
        assertThatThrownBy(() -> ProfileFiles.write(PROFILE, dir.resolve("p.svg"), ReportOptions.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("p.svg");

        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void optionsFilterAndReverse() throws IOException {
        Path path = dir.resolve("p.collapsed");
        ProfileFiles.write(PROFILE, path, new ReportOptions(null, TestProfiles.filter("A\\.x", null), true, FrameStyle.DEFAULT));

        assertThat(Files.readAllLines(path)).containsExactly(
                "# mixflame engine=jfr event=cpu interval=10ms samples=6 0",
                "app/A.y;app/A.x;main 6");
    }

    @Test
    void htmlGetsTheCallersTitleAndReverse() throws IOException {
        Path path = dir.resolve("p.html");
        ProfileFiles.write(PROFILE, path, new ReportOptions("My title", TestProfiles.filter(null, "B"), true, FrameStyle.DEFAULT));

        String html = Files.readString(path);
        assertThat(html).contains("<h1>My title — engine jfr</h1>");
        assertThat(TestProfiles.parseHtml(html)).containsOnly(entry("app/A.y_[j];app/A.x_[j];main_[j]", 6L));
    }

    @Test
    void readsAnnotatedCollapsedBackWithFrameKinds() throws IOException {
        Path path = dir.resolve("p.collapsed");
        ProfileFiles.write(PROFILE, path, new ReportOptions(null, FrameFilter.NONE, false, TestProfiles.ANNOTATED));

        Profile read = ProfileFiles.read(path, warnings::add);

        assertThat(TestProfiles.frameStacks(read)).isEqualTo(TestProfiles.frameStacks(PROFILE));
        assertThat(read.info().engine()).isEqualTo("jfr");
        assertThat(warnings).isEmpty();
    }

    @Test
    void readsOurHtmlBackWithEngineAndEvent() throws IOException {
        Path path = dir.resolve("p.html");
        ProfileFiles.write(PROFILE, path, ReportOptions.DEFAULT);

        Profile read = ProfileFiles.read(path, warnings::add);

        assertThat(TestProfiles.collapsedStacks(read)).isEqualTo(TestProfiles.collapsedStacks(PROFILE));
        assertThat(read.info().engine()).isEqualTo("jfr");
        assertThat(read.info().event()).isEqualTo("cpu");
        assertThat(warnings).isEmpty();
    }

    @Test
    void readsOtherFlameGraphPagesAsHtmlEngine() throws IOException {
        Path path = dir.resolve("p.html");
        ProfileFiles.write(PROFILE, path, new ReportOptions("Someone else's", FrameFilter.NONE, false, FrameStyle.DEFAULT));

        Profile read = ProfileFiles.read(path, warnings::add);

        assertThat(read.totalSamples()).isEqualTo(10);
        assertThat(read.info().engine()).isEqualTo("html");
        assertThat(read.info().notes()).singleElement().asString().contains("Someone else's");
    }

    @Test
    void aDirectoryIsNotAProfile() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("in.collapsed"));

        assertThatThrownBy(() -> ProfileFiles.read(sub, warnings::add))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("in.collapsed")
                .hasMessageContaining("is a directory");
    }

    @Test
    void anOtlpFileIsWrittenAndItsReadingRefusedInOneLine() throws IOException {
        Path path = dir.resolve("p.otlp");
        ProfileFiles.write(TestProfiles.labelled(), path, ReportOptions.DEFAULT);
        assertThat(OtlpMessages.problems(OtlpMessages.parse(Files.readAllBytes(path)))).isEmpty();

        assertThatThrownBy(() -> ProfileFiles.read(path, warnings::add))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("p.otlp: is an OTLP profile")
                .hasMessageNotContaining("\n");
    }

    @Test
    void gzipInputThatIsNoPprofIsRefusedClearly() throws IOException {
        Path path = dir.resolve("p.collapsed.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(path))) {
            out.write("a;b 1\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        assertThatThrownBy(() -> ProfileFiles.read(path, warnings::add))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(path + ": is gzip-compressed but not a readable pprof profile")
                .message().doesNotContain("\n");
    }

    @Test
    void aLineThatIsNotUtf8IsSkippedAndTheRestOfTheFileRead() throws IOException {
        Path path = Files.write(dir.resolve("p.collapsed"),
                new byte[] {'a', ' ', '1', '\n', 'b', ' ', (byte) 0xff, (byte) 0xfe, '\n', 'c', ' ', '2', '\n'});

        Profile read = ProfileFiles.read(path, warnings::add);

        assertThat(warnings).containsExactly("line 2: is not UTF-8 text");
        assertThat(TestProfiles.collapsedStacks(read)).containsOnly(entry("a", 1L), entry("c", 2L));
    }

    @Test
    void anEndlessInputEndsWithOneLineNamingTheBound() {
        // /dev/zero: a character device that never ends and has no line break.
        assertThatThrownBy(() -> ProfileFiles.read(Path.of("/dev/zero"), warnings::add))
                .isInstanceOf(IOException.class)
                .hasMessage("/dev/zero: line 1: over the bound of 8 388 608 bytes in one line");
    }

    @Test
    void anHtmlPageWithALineLongerThanTheBoundIsRefused() throws IOException {
        Path path = Files.writeString(dir.resolve("p.html"), "<!DOCTYPE html>\n<h1>" + "x".repeat(200) + "</h1>\n");
        assertThatThrownBy(() -> ProfileFiles.read(path, warnings::add, TestBounds.lineBytes(100)))
                .isInstanceOf(IOException.class)
                .hasMessage(path + ": line 2: over the bound of 100 bytes in one line");
    }

    @Test
    void anHtmlPageOfMoreLinesThanTheBoundIsRefused() throws IOException {
        Path path = dir.resolve("p.html");
        ProfileFiles.write(PROFILE, path, ReportOptions.DEFAULT);
        assertThatThrownBy(() -> ProfileFiles.read(path, warnings::add, TestBounds.pageLines(50)))
                .isInstanceOf(IOException.class)
                .hasMessage(path + ": line 51: over the bound of 50 lines in one flame graph page");
    }

    @Test
    void anHtmlPageDeeperThanTheBoundIsRefused() throws IOException {
        Path path = dir.resolve("p.html");
        ProfileFiles.write(PROFILE, path, ReportOptions.DEFAULT);
        assertThatThrownBy(() -> ProfileFiles.read(path, warnings::add, TestBounds.stackDepth(2)))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(path + ": line ")
                .hasMessageEndingWith(": over the bound of 2 frames in one stack");
        assertThat(ProfileFiles.read(path, warnings::add).totalSamples()).isEqualTo(10);
    }

    @Test
    void stacksDeeperThanAThreadStackHoldsAreDrawnAndReadBack() throws IOException {
        String[] names = new String[10_000];
        for (int i = 0; i < names.length; i++) {
            names[i] = "app/F.f" + i;
        }
        Profile deep = TestProfiles.with(TestProfiles.JFR_CPU).addJava(3, String.join(";", names)).build();
        Path path = dir.resolve("deep.html");

        ProfileFiles.write(deep, path, ReportOptions.DEFAULT);
        Profile read = ProfileFiles.read(path, warnings::add);

        assertThat(TestProfiles.collapsedStacks(read)).isEqualTo(TestProfiles.collapsedStacks(deep));
    }

    @Test
    void htmlThatIsNotAFlameGraphIsRefusedClearly() throws IOException {
        Path path = Files.writeString(dir.resolve("page.html"), "<!DOCTYPE html>\n<html><body>hi</body></html>\n",
                StandardCharsets.UTF_8);

        assertThatThrownBy(() -> ProfileFiles.read(path, warnings::add))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not a flame graph");
    }

    @Test
    void hostileNamesAreWrittenSafelyAndReadBackExactly() throws IOException {
        Profile hostile = HostileNames.profile();
        Path path = dir.resolve("hostile.html");

        ProfileFiles.write(hostile, path, ReportOptions.DEFAULT);
        Profile read = ProfileFiles.read(path, warnings::add);

        HostileNames.assertScriptSafe(Files.readString(path));
        assertThat(warnings).isEmpty();
        assertThat(HostileNames.names(read)).isEqualTo(HostileNames.names(hostile));
        assertThat(TestProfiles.collapsedStacks(read)).isEqualTo(TestProfiles.collapsedStacks(hostile));
    }
}
