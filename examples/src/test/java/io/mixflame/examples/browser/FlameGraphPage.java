package io.mixflame.examples.browser;

import java.time.Duration;
import java.util.List;

/**
 * async-profiler's flame graph page (the template {@code HtmlFlameGraphWriter} fills), used through what the page
 * itself offers: its search button and prompt, its "Matched:" line, its canvas, and the frames its script built.
 */
public final class FlameGraphPage {
    /** The fill the page gives frames that match a search ({@code #ee00ee}). */
    private static final int[] MATCH_RGB = {0xee, 0x00, 0xee};

    private final HeadlessChromium browser;

    public FlameGraphPage(HeadlessChromium browser) {
        this.browser = browser;
    }

    /** A frame as the page drew it: its depth (0 is the root), first sample, sample count and name. */
    public record Frame(int level, long left, long width, String title) {
    }

    /** The page's heading, which the writer fills with the profile's title. */
    public String heading() {
        return (String) browser.evaluate("return document.querySelector('h1').textContent");
    }

    /** Searches as a person does: the search button, then the regular expression typed into the page's prompt. */
    public void search(String regexp) throws InterruptedException {
        browser.click("search");
        browser.answerPrompt(regexp, Duration.ofSeconds(10));
    }

    /** What the "Matched:" line says, e.g. {@code 12.34%}; null while the page shows no such line. */
    public String matched() {
        return browser.displayed("match") ? browser.text("matchval") : null;
    }

    /** How many of the canvas's pixels have the search's highlight colour. */
    public long highlightedPixels() {
        return (Long) browser.evaluate("""
                const canvas = document.getElementById('canvas');
                const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                let n = 0;
                for (let i = 0; i < data.length; i += 4) {
                    if (data[i] === arguments[0] && data[i + 1] === arguments[1] && data[i + 2] === arguments[2]) n++;
                }
                return n;""", MATCH_RGB[0], MATCH_RGB[1], MATCH_RGB[2]);
    }

    /** Every frame the page's script built from the profile (its {@code levels}), level by level. */
    public List<Frame> frames() {
        @SuppressWarnings("unchecked")
        List<List<Object>> rows = (List<List<Object>>) browser.evaluate(
                "return levels.flat().map(f => [f.level, f.left, f.width, f.title])");
        return rows.stream().map(r -> new Frame(((Number) r.get(0)).intValue(), ((Number) r.get(1)).longValue(),
                ((Number) r.get(2)).longValue(), (String) r.get(3))).toList();
    }
}
