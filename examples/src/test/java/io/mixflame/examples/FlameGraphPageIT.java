package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mixflame.examples.browser.BrowserToolchain;
import io.mixflame.examples.browser.FlameGraphPage;
import io.mixflame.examples.browser.FoldedStacks;
import io.mixflame.examples.browser.HeadlessChromium;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start's flame graph as a person sees it: the {@code mixed} example's page opened in headless Chromium
 * draws without a console error, a failed load or an uncaught exception, and its search finds zlib's
 * {@code deflate}, highlighted on the canvas, with the share of samples the profile's stacks give it. Leaves a
 * screenshot at {@code examples/target/flamegraph-mixed.png}, which README's {@code docs/flamegraph-mixed.png} is a
 * copy of.
 */
class FlameGraphPageIT {
    private static final int WIDTH = 1400;
    private static final int HEIGHT = 800;

    @TempDir
    Path dir;

    @Test
    void mixedExamplesPageDrawsAndItsSearchFindsDeflate() throws Exception {
        // First, so that a machine without the browser does not profile for nothing before reporting not run.
        BrowserToolchain browser = BrowserToolchain.require();
        Path html = profileMixed();

        try (HeadlessChromium chromium = HeadlessChromium.start(browser, dir, WIDTH, HEIGHT)) {
            chromium.open(html);
            assertThat(chromium.newErrors()).as("console errors, uncaught exceptions, failed loads").isEmpty();
            FlameGraphPage page = new FlameGraphPage(chromium);
            Map<List<String>, Long> stacks = FoldedStacks.of(page.frames());
            long samples = stacks.values().stream().mapToLong(Long::longValue).sum();
            assertThat(page.heading()).as("the title's count, against the page's stacks")
                    .contains(String.format(Locale.ROOT, "%,d", samples).replace(',', ' ') + " samples");
            assertThat(page.matched()).as("no search yet").isNull();
            assertThat(page.highlightedPixels()).as("no search yet").isZero();

            assertSearchFinds(page, stacks, "deflate");
            // The bottom: the threads' roots and the widest frames; the top of a deep graph is mostly empty.
            chromium.scrollToBottom();
            chromium.screenshot(BuiltJars.projectRoot().resolve("examples/target/flamegraph-mixed.png"));

            // The same check must fail for a name the profile does not hold, or it checks nothing.
            assertThatThrownBy(() -> assertSearchFinds(page, stacks, "mixflame_no_such_frame"))
                    .isInstanceOf(AssertionError.class);
            assertThat(page.matched()).isEqualTo("0.00%");
            assertThat(page.highlightedPixels()).isZero();
            assertThat(chromium.newErrors()).as("console errors, uncaught exceptions after searching").isEmpty();

            // And the error check must see errors when there are some: an uncaught exception and a failed load.
            chromium.evaluate("""
                    setTimeout(() => { throw new Error('mixflame probe') });
                    document.body.appendChild(document.createElement('img')).src = 'mixflame-no-such-file.png';""");
            assertThat(errorsWithin(chromium, Duration.ofSeconds(10), "mixflame probe", "mixflame-no-such-file.png"))
                    .anyMatch(e -> e.contains("mixflame probe")).anyMatch(e -> e.contains("mixflame-no-such-file.png"));
        }
    }

    /**
     * Searches through the page's UI and checks what it shows: a share above zero that is the share of the profile's
     * stacks holding a matching frame, and that share drawn in the highlight colour.
     */
    private static void assertSearchFinds(FlameGraphPage page, Map<List<String>, Long> stacks, String regexp)
            throws InterruptedException {
        page.search(regexp);
        Pattern p = Pattern.compile(regexp);
        long total = stacks.values().stream().mapToLong(Long::longValue).sum();
        long matching = stacks.entrySet().stream().filter(e -> e.getKey().stream().anyMatch(f -> p.matcher(f).find()))
                .mapToLong(Map.Entry::getValue).sum();
        String shown = page.matched();
        assertThat(shown).as("the page's Matched: line for /%s/", regexp).matches("[\\d.]+%");
        double percent = Double.parseDouble(shown.substring(0, shown.length() - 1));
        assertThat(percent).as("matched share shown for /%s/", regexp).isGreaterThan(0)
                .isCloseTo(100.0 * matching / total, within(0.006));
        assertThat(page.highlightedPixels()).as("highlighted pixels for /%s/", regexp).isPositive();
    }

    /** The browser's errors until each of the texts is in one of them, or the time is up. */
    private static List<String> errorsWithin(HeadlessChromium chromium, Duration timeout, String... texts)
            throws InterruptedException {
        List<String> errors = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Arrays.stream(texts).allMatch(t -> errors.stream().anyMatch(e -> e.contains(t)))
                && System.nanoTime() < deadline) {
            errors.addAll(chromium.newErrors());
            Thread.sleep(50);
        }
        return errors;
    }

    /** The quick start's command, shorter: the agent's HTML flame graph of five seconds of the mixed example. */
    private Path profileMixed() throws Exception {
        Path html = dir.resolve("mixed.html");
        Path jdk = TestJdks.all().get(0);
        List<String> args = List.of("-javaagent:" + BuiltJars.agent() + "=start,file=" + html, "-jar",
                BuiltJars.examples().toString(), "mixed", "--seconds", "5");
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        assertThat(html).isRegularFile();
        assertThat(Files.size(html)).isPositive();
        return html;
    }
}
