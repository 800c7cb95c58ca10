package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Stack shapes as async-profiler and mixflame write them (root first). */
class StackShapesTest {
    private static final List<String> CALLBACK = List.of("start_thread", "JavaMain", "call_stub",
            "io/mixflame/examples/mixed/QsortPhase.run_[0]", "com/sun/jna/Native.invokeVoid_[0]",
            "Java_com_sun_jna_Native_invokeVoid", "ffi_call", "__qsort_r", "msort_with_tmp.part.0",
            "[jna123.tmp+0x161e8]", "JavaCalls::call_helper(JavaValue*, methodHandle const&, JavaCallArguments*, JavaThread*)",
            "StubRoutines (1)", "io/mixflame/examples/mixed/QsortPhase.compare_[i]");
    private static final List<String> ZLIB = List.of("io/mixflame/examples/mixed/ZlibPhase.run_[j]",
            "java/util/zip/Deflater.deflateBytesBytes_[j]", "deflate", "longest_match");
    private static final List<String> JAVA_ONLY = List.of("java/lang/Thread.run_[j]", "I2C/C2I adapters",
            "io/mixflame/examples/CpuWorkload.alpha_[i]");

    @Test
    void callbackFromQsortIsJavaNativeJava() {
        assertThat(StackShapes.nativeUnderJava(CALLBACK)).isTrue();
        assertThat(StackShapes.javaNativeJava(CALLBACK)).isTrue();
        assertThat(StackShapes.javaQsortJava(CALLBACK)).isTrue();
    }

    @Test
    void zlibIsNativeUnderJavaOnly() {
        assertThat(StackShapes.nativeUnderJava(ZLIB)).isTrue();
        assertThat(StackShapes.javaNativeJava(ZLIB)).isFalse();
        assertThat(StackShapes.javaQsortJava(ZLIB)).isFalse();
    }

    @Test
    void jvmStubsAndNativeFramesAboveJavaAreNotNativeUnderJava() {
        assertThat(StackShapes.nativeUnderJava(JAVA_ONLY)).isFalse();
        assertThat(StackShapes.javaNativeJava(JAVA_ONLY)).isFalse();
        List<String> nativeAboveOnly = List.of("start_thread", "JavaMain", "io/mixflame/examples/Examples.main_[0]");
        assertThat(StackShapes.nativeUnderJava(nativeAboveOnly)).isFalse();
    }

    @Test
    void frameKindsFollowTheSuffixes() {
        assertThat(FrameKind.of("a/B.c_[j]")).isEqualTo(FrameKind.JAVA);
        assertThat(FrameKind.of("a/B.c_[1]")).isEqualTo(FrameKind.JAVA);
        assertThat(FrameKind.of("do_syscall_64_[k]")).isEqualTo(FrameKind.KERNEL);
        assertThat(FrameKind.of("[unknown]")).isEqualTo(FrameKind.MARKER);
        assertThat(FrameKind.of("Interpreter")).isEqualTo(FrameKind.JVM_STUB);
        assertThat(FrameKind.of("__memcmp_avx2_movbe")).isEqualTo(FrameKind.NATIVE);
        assertThat(FrameKind.name("a/B.c_[i]")).isEqualTo("a/B.c");
    }
}
