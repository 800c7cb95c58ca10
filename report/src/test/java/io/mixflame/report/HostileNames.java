package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.util.Set;
import java.util.TreeSet;

/** Frame and thread names that try to break out of a page's script block, and the checks that they did not. */
final class HostileNames {

    static final String BREAKOUT = "</script><script>alert(1)</script>";

    private HostileNames() {
    }

    /** Names a profiled application may well have: scripts, comments, line separators, escapes, quotes. */
    static Profile profile() {
        return TestProfiles.with(TestProfiles.JFR_CPU)
                .add(5, Frame.thread(BREAKOUT, 1), TestProfiles.jit("app/X.<init>"), TestProfiles.jit("x" + BREAKOUT))
                .add(4, Frame.thread("main", 2), frame("a<!--b"), frame("line\u2028sep\u2029para"))
                // A literal backslash-u escape in a name must stay literal text, not become '<'.
                .add(3, Frame.thread("main", 2), frame("odd\\u003c\\x3c\\\\u003c"), frame("it's \\"))
                // 28 common characters: the second name's packed prefix length is written as '<'.
                .add(2, frame("abcdefghijklmnopqrstuvwxyz01A"), frame("q"))
                .add(1, frame("abcdefghijklmnopqrstuvwxyz01B<"), frame("q"))
                .build();
    }

    // Native, and named so that reading a page back guesses native again.
    private static Frame frame(String name) {
        return new Frame(name, FrameType.NATIVE);
    }

    /** Every frame name of a profile. */
    static Set<String> names(Profile profile) {
        Set<String> names = new TreeSet<>();
        for (Frame f : profile.frames()) {
            names.add(f.name());
        }
        return names;
    }

    /** The page holds only the template's script tags, no comment opener and no raw line separator. */
    static void assertScriptSafe(String html) {
        assertThat(count(html, "<script")).as("<script in the page").isEqualTo(2);
        assertThat(count(html, "</script")).as("</script in the page").isEqualTo(2);
        assertThat(html).doesNotContain("<!--").doesNotContain("\u2028").doesNotContain("\u2029");
        assertThat(html.lines().filter(l -> l.startsWith("'")).toList())
                .as("cpool lines").isNotEmpty().allSatisfy(l -> assertThat(l).doesNotContain("<"));
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
