package io.mixflame.report;

import static io.mixflame.report.TestProfiles.frame;
import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CollapsedWriterTest {

    static String write(Profile profile) throws IOException {
        return write(profile, FrameStyle.DEFAULT);
    }

    static String write(Profile profile, FrameStyle style) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CollapsedWriter(style).write(profile, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Profile everyKind() {
        Frame thread = Frame.thread("main", 1);
        Frame run = frame("java/lang/Thread.run", FrameType.INTERPRETED);
        return TestProfiles.with(TestProfiles.JFR_CPU.withNote("sampler cost 0.2% of one cpu"))
                .add(3, thread, run, jit("com/x/App.work"), frame("com/x/App.inner", FrameType.INLINED))
                .add(5, frame("call_stub", FrameType.STUB))
                .add(1, frame("weird;name\nwith\rbreaks", FrameType.NATIVE))
                .add(2, thread, run, frame("com/x/App.c1", FrameType.C1_COMPILED))
                .add(4, Frame.UNKNOWN)
                .add(1, frame("__write", FrameType.NATIVE), frame("do_syscall_64", FrameType.KERNEL))
                .build();
    }

    @Test
    void withAnnWritesHeaderNotesAndSortedStacksWithAsyncProfilerSuffixes() throws IOException {
        assertThat(write(everyKind(), TestProfiles.ANNOTATED)).isEqualTo("""
                # mixflame engine=jfr event=cpu interval=10ms samples=16 0
                # note: sampler cost 0.2% of one cpu 0
                [main tid=1];java/lang/Thread.run_[0];com/x/App.c1_[1] 2
                [main tid=1];java/lang/Thread.run_[0];com/x/App.work_[j];com/x/App.inner_[i] 3
                [unknown] 4
                __write;do_syscall_64_[k] 1
                call_stub 5
                weird:name with breaks 1
                """);
    }

    @Test
    void byDefaultJavaFramesHaveNoSuffixAndKernelFramesKeepTheirs() throws IOException {
        assertThat(write(everyKind())).isEqualTo("""
                # mixflame engine=jfr event=cpu interval=10ms samples=16 0
                # note: sampler cost 0.2% of one cpu 0
                [main tid=1];java/lang/Thread.run;com/x/App.c1 2
                [main tid=1];java/lang/Thread.run;com/x/App.work;com/x/App.inner 3
                [unknown] 4
                __write;do_syscall_64_[k] 1
                call_stub 5
                weird:name with breaks 1
                """);
    }

    @Test
    void sigKeepsCxxParameterListsThatAreOtherwiseCut() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, jit("a/App.main"), Frame.nativeCode("JavaCalls::call(JavaValue*, methodHandle const&)",
                        "libjvm.so", 0x1234), frame("deflate", FrameType.NATIVE))
                .build();

        assertThat(write(profile).lines().skip(1)).containsExactly("a/App.main;JavaCalls::call;deflate 2");
        assertThat(write(profile, new FrameStyle(false, true, false)).lines().skip(1))
                .containsExactly("a/App.main;JavaCalls::call(JavaValue*, methodHandle const&);deflate 2");
    }

    @Test
    void libPrefixesNativeFramesOfAKnownModuleWithABackquote() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, jit("a/App.main"), Frame.nativeCode("qsort", "libc.so.6", 0x40),
                        frame("no_module", FrameType.NATIVE), frame("do_syscall_64", FrameType.KERNEL))
                .build();

        assertThat(write(profile, new FrameStyle(false, false, true)).lines().skip(1))
                .containsExactly("a/App.main;libc.so.6`qsort;no_module;do_syscall_64_[k] 2");
        assertThat(write(profile).lines().skip(1)).containsExactly("a/App.main;qsort;no_module;do_syscall_64_[k] 2");
    }

    @Test
    void aNameEscapesItsSeparatorsAlsoBehindALibraryPrefix() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(1, Frame.nativeCode("evil;name\n", "lib;x\n.so", 0))
                .build();

        assertThat(write(profile, new FrameStyle(true, true, true)).lines().skip(1))
                .containsExactly("lib:x .so`evil:name  1");
    }

    @Test
    void stacksThatPrintAlikeBecomeOneLine() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, frame("a;b", FrameType.NATIVE))
                .add(3, frame("a:b", FrameType.NATIVE))
                .add(4, frame("a:b", FrameType.STUB))
                .build();

        assertThat(write(profile).lines().skip(1)).containsExactly("a:b 9");
    }

    @Test
    void anEmptyProfileIsJustItsHeaderWithoutInterval() throws IOException {
        Profile profile = Profile.empty(new ProfileInfo("perf", "wall", 0, 0, 0, List.of()));

        assertThat(write(profile)).isEqualTo("# mixflame engine=perf event=wall samples=0 0\n");
    }

    @Test
    void leavesTheCallersStreamOpen() throws IOException {
        boolean[] closed = {false};
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        new CollapsedWriter().write(TestProfiles.with(TestProfiles.JFR_CPU).addJava(1, "a").build(), out);

        assertThat(closed[0]).isFalse();
        assertThat(out.toString(StandardCharsets.UTF_8)).endsWith("\na 1\n");
    }

    @Test
    void labelsAreWrittenAsBracketedFramesAfterTheThreadWithoutSuffixes() throws IOException {
        assertThat(write(TestProfiles.labelled(), TestProfiles.ANNOTATED)).isEqualTo("""
                # mixflame engine=jfr event=cpu interval=10ms samples=15 0
                [endpoint=/search];a/Shop.search_[j] 1
                [main tid=1];[endpoint=/checkout];[tenant=acme];a/Shop.checkout_[j];a/Db.query_[j] 5
                [main tid=1];[endpoint=/search];[tenant=acme];a/Shop.search_[j];a/Db.query_[j] 3
                [main tid=1];a/Idle.run_[j] 4
                [worker tid=2];[endpoint=/checkout];a/Shop.checkout_[j] 2
                """);
    }

    @Test
    void aLabelValueCannotBreakTheLineOrAddAFrame() throws IOException {
        Profile profile = TestProfiles.with(TestProfiles.JFR_CPU)
                .add(2, Frame.thread("main", 1), Frame.label("q", "a;b\nfake;frames 99\n"), jit("a/B.c"))
                .build();

        assertThat(write(profile).lines().skip(1).toList())
                .containsExactly("[main tid=1];[q=a:b fake:frames 99 ];a/B.c 2");
    }
}
