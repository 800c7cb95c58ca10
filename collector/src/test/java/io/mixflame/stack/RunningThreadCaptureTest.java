package io.mixflame.stack;

import io.mixflame.capture.CaptureMethod;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A running thread of another process is captured by a short ptrace stop and walked like any other. */
class RunningThreadCaptureTest {


    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.ChildProcess#jdks")
    void runningThreadIsStoppedBrieflyAndWalked(Path jdk) throws Exception {
        try (ChildProcess app = ChildProcess.java(jdk, List.of(), "io.mixflame.testapp.BusyApp")) {
            app.readUntil("ready");
            ProcessStackWalker walker = ProcessStackWalker.attach(app.pid());
            long tid = app.threadNamed("mf-busy");
            CallStack stack = walker.capture(tid, CaptureOptions.DEFAULT);
            List<String> described = stack.frames().stream().map(StackFrame::describe).toList();
            assertThat(stack.method()).as("%s", described).isEqualTo(CaptureMethod.PTRACE_STOP);
            assertThat(stack.complete()).as("%s", described).isTrue();
            assertThat(stack.frames()).as("%s", described)
                    .anyMatch(f -> "io.mixflame.testapp.BusyApp".equals(f.javaClass()) && "spin".equals(f.javaMethod()));
            assertThat(described.get(described.size() - 1)).endsWith("clone3+0x2c");
            assertThat(java.nio.file.Files.readString(Path.of("/proc/" + app.pid() + "/task/" + tid + "/status")))
                    .as("the thread runs on after the capture").doesNotContain("TracerPid:\t" + ProcessHandle.current().pid());
            walker.close();
        }
    }
}
