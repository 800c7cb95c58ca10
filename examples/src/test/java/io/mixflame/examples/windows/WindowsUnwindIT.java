package io.mixflame.examples.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.WindowsToolchain;
import io.mixflame.unwind.WalkedStack;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The profiler's production walk of x64 Windows stacks ({@link io.mixflame.unwind.chain.UnwinderChain}'s walker, whose PE
 * unwinder reads the modules' {@code .pdata}) against DbgHelp's StackWalk64, under Wine. A MinGW-built program parks
 * worker threads in functions of each unwind shape (frame pointer or none, a frame larger than a page, alloca, pushed
 * non-volatile registers, saved XMM registers, a leaf without unwind data, a fiber's stack, a thread started by
 * ucrtbase's {@code _beginthreadex}), suspends them, and dumps each one's registers and stack with StackWalk64's walk
 * of it; the walker, given the same registers, the stack copy and a module map of the modules' images, must find the
 * same frames (pc and rsp) in the same order down to the thread's first frame. Then the copy is corrupted: the walk
 * must stop at the damage with a marker. Last, the program runs beside a Windows JRE's own {@code ucrtbase.dll},
 * which Wine names for the module while it maps its builtin one, as in a JVM's process.
 */
class WindowsUnwindIT {
    private static final List<String> THREAD_START = List.of("kernel32.dll!BaseThreadInitThunk",
            "ntdll.dll!RtlUserThreadStart");
    /** Each worker's frames, innermost first, as the program's source arranges them. */
    private static final Map<String, List<String>> EXPECTED = new LinkedHashMap<>();
    /** A value in no module and far from any stack: a corrupted slot. */
    private static final long GARBAGE = 0xdead_beef_dead_beefL;

    static {
        expect("frame-pointer", "shape_frame_pointer");
        expect("no-frame-pointer", "shape_no_frame_pointer");
        expect("large-frame", "shape_large_frame");
        expect("alloca", "shape_alloca");
        expect("nonvolatile", "shape_nonvolatile");
        expect("xmm", "shape_xmm");
        expect("leaf-without-unwind-data", "leaf_park", "shape_calls_leaf", "shape_no_frame_pointer");
        expect("every-shape", "leaf_park", "shape_calls_leaf", "shape_no_frame_pointer", "shape_nonvolatile",
                "shape_frame_pointer", "shape_large_frame", "shape_xmm", "shape_alloca");
        // A fiber's first frame is kernelbase's fiber start routine, which exports no name: only its module counts.
        List<String> fiber = new ArrayList<>(exe("shape_large_frame", "shape_frame_pointer", "shape_nonvolatile",
                "run_chain", "fiber_main"));
        fiber.add("kernelbase.dll");
        EXPECTED.put("fiber", fiber);
        // Started by ucrtbase's _beginthreadex, as a JVM's threads are: its thread start, which exports no name,
        // sits between the worker and kernel32's.
        List<String> crt = new ArrayList<>(exe("shape_no_frame_pointer", "run_chain", "worker_main"));
        crt.add("ucrtbase.dll");
        crt.addAll(THREAD_START);
        EXPECTED.put("crt-thread", crt);
    }

    private static void expect(String thread, String... shapes) {
        List<String> frames = new ArrayList<>(exe(shapes));
        frames.addAll(exe("run_chain", "worker_main"));
        frames.addAll(THREAD_START);
        EXPECTED.put(thread, frames);
    }

    private static List<String> exe(String... functions) {
        return Stream.of(functions).map(f -> "unwind_shapes.exe!" + f).toList();
    }

    /** One run of the program: its dump and the process the walker sees. */
    private record Run(PeStackDump dump, DumpedProcess process) {
    }

    @TempDir
    static Path dir;
    /** The run with Wine's own ucrtbase.dll, where StackWalk64 is the oracle. */
    private static Run run;
    private static PeStackDump dump;
    private static DumpedProcess process;
    /** The run beside a native ucrtbase.dll, made by the one test that needs it. */
    private static Run besideNativeUcrtbase;

    /**
     * Every test asks for the toolchain itself, so that without it each is reported not run with the reason (a
     * class-level abort in {@code @BeforeAll} shows in the reports as no test at all); the program runs once.
     */
    @BeforeEach
    void runTheProgramUnderWineOnce() throws Exception {
        WindowsToolchain wine = WindowsToolchain.require();
        if (run == null) {
            run = runTheProgram(wine, Files.createDirectories(dir.resolve("wine-ucrtbase")), List.of());
            dump = run.dump();
            process = run.process();
        }
    }

    /**
     * Builds and runs the program in {@code home}, with {@code besideIt} copied there first (DLLs its directory is to
     * hold, which the loader looks at before system32).
     */
    private static Run runTheProgram(WindowsToolchain wine, Path home, List<Path> besideIt) throws Exception {
        Path source = Path.of("target/test-classes/native/pe-unwind/unwind_shapes.c").toAbsolutePath();
        Path exe = home.resolve("unwind_shapes.exe");
        wine.compile(home, List.of("-O2", "-Wall", "-o", exe.toString(), source.toString(), "-ldbghelp", "-lpsapi"));
        for (Path dll : besideIt) {
            Files.copy(dll, home.resolve(dll.getFileName()));
        }
        Path dumpFile = home.resolve("dump.txt");
        CommandRun run = wine.runUnderWine(home, "unwind_shapes", Duration.ofMinutes(2),
                List.of(exe.toString(), wine.windowsPath(dumpFile)));
        assertThat(run.status()).as("unwind_shapes.exe: %s%s", run.stdout(), run.stderr()).isZero();
        assertThat(run.stdout()).as("Windows line ends").isEqualTo("dump written\r\n");
        PeStackDump dumped = PeStackDump.read(dumpFile);
        return new Run(dumped, new DumpedProcess(dumped, wine::linuxPath));
    }

    static Stream<String> threads() {
        return EXPECTED.keySet().stream();
    }

    private static DumpedWalk walk(PeStackDump.DumpedThread t, byte[] stack, long high) {
        return DumpedWalk.of(process, t, stack, high);
    }

    private static DumpedWalk walk(PeStackDump.DumpedThread t) {
        return DumpedWalk.of(process, t);
    }

    private static String describe(DumpedWalk walk) {
        return describe(process, walk);
    }

    private static String describe(DumpedProcess in, DumpedWalk walk) {
        return walk.end() + (walk.marked() ? " (marker)" : "") + ":\n" + walk.frames().stream()
                .map(f -> String.format("  pc %x sp %x %s", f.pc(), f.sp(), in.name(f.pc())))
                .collect(Collectors.joining("\n"));
    }

    /** Both walks of a thread, for failure messages. */
    private static String describeBoth(DumpedProcess in, DumpedWalk ours, PeStackDump.DumpedThread t) {
        return "ours " + describe(in, ours) + "\nStackWalk64 (" + t.walkEnd() + "):\n" + t.walk().stream()
                .map(f -> String.format("  pc %x sp %x %s (DbgHelp: %s)", f.pc(), f.sp(), in.name(f.pc()), f.name()))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void theDumpHoldsEveryWorkerWalkedToItsEndByStackWalk64() {
        assertThat(dump.threads().keySet()).containsExactlyElementsOf(EXPECTED.keySet());
        dump.threads().values().forEach(t -> assertThat(t.walkEnd()).as(t.name())
                .isEqualTo(t.walk().size() + " return-address-zero"));
    }

    @ParameterizedTest
    @MethodSource("threads")
    void walksTheSameFramesAsStackWalk64(String name) {
        PeStackDump.DumpedThread t = dump.threads().get(name);
        DumpedWalk ours = walk(t);
        String both = describeBoth(process, ours, t);

        assertThat(ours.frames()).extracting(DumpedWalk.Frame::pc).as(both)
                .containsExactlyElementsOf(t.walk().stream().map(PeStackDump.OracleFrame::pc).toList());
        assertThat(ours.frames()).extracting(DumpedWalk.Frame::sp).as(both)
                .containsExactlyElementsOf(t.walk().stream().map(PeStackDump.OracleFrame::sp).toList());
        assertThat(ours.end()).as(both).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(ours.marked()).as(both).isFalse();
        assertThat(names(process, ours.frames(), EXPECTED.get(name))).as(both)
                .containsExactlyElementsOf(EXPECTED.get(name));
    }

    /** The frames' names, each cut to its module where the expected name is a module's alone. */
    private static List<String> names(DumpedProcess in, List<DumpedWalk.Frame> frames, List<String> expected) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            String n = in.name(frames.get(i).pc());
            boolean moduleOnly = i < expected.size() && !expected.get(i).contains("!");
            names.add(moduleOnly ? n.substring(0, Math.max(0, n.indexOf('!'))) : n);
        }
        return names;
    }

    @Test
    void aCorruptedReturnAddressEndsTheWalkJustBelowIt() {
        PeStackDump.DumpedThread t = dump.threads().get("every-shape");
        List<DumpedWalk.Frame> whole = walk(t).frames();
        for (int k = 1; k < whole.size(); k++) {
            // A caller's rsp is just above the return address its callee returned to.
            byte[] stack = corrupted(t, whole.get(k).sp() - 8);

            DumpedWalk walk = walk(t, stack, t.stackHigh());

            assertThat(walk.end()).as("return address of frame %d corrupted", k).isEqualTo(WalkedStack.End.BAD_PC);
            assertThat(walk.marked()).isTrue();
            assertThat(walk.frames()).as("return address of frame %d corrupted", k)
                    .containsExactlyElementsOf(whole.subList(0, k));
        }
    }

    @ParameterizedTest
    @MethodSource("threads")
    void anyOneCorruptedSlotEndsTheWalkInAMarkerAfterTrueFramesOnly(String name) {
        PeStackDump.DumpedThread t = dump.threads().get(name);
        List<DumpedWalk.Frame> whole = walk(t).frames();
        Map<WalkedStack.End, Integer> ends = new EnumMap<>(WalkedStack.End.class);
        for (long slot = t.stackStart(); slot + 8 <= t.stackStart() + t.stack().length; slot += 8) {
            DumpedWalk walk = walk(t, corrupted(t, slot), t.stackHigh());
            long corruptedSlot = slot;
            Supplier<String> what = () -> String.format("slot %x corrupted: %s", corruptedSlot, describe(walk));

            assertThat(walk.frames().size()).as(what).isLessThanOrEqualTo(whole.size());
            assertThat(walk.frames()).as(what).containsExactlyElementsOf(whole.subList(0, walk.frames().size()));
            assertThat(walk.end()).as(what).isNotEqualTo(WalkedStack.End.DEPTH_LIMIT);
            if (walk.end() == WalkedStack.End.COMPLETED) {
                assertThat(walk.frames()).as(what).hasSameSizeAs(whole);
            }
            assertThat(walk.marked()).as(what).isEqualTo(walk.end() != WalkedStack.End.COMPLETED);
            ends.merge(walk.end(), 1, Integer::sum);
        }
        // Every return address is one slot whose corruption must show; the last frame's zero is one more.
        assertThat(ends.getOrDefault(WalkedStack.End.BAD_PC, 0)).as("%s", ends).isGreaterThanOrEqualTo(whole.size());
    }

    @Test
    void aCorruptedSavedFramePointerFailsTheUnwind() {
        // In every-shape, shape_nonvolatile pushes the rbp that its caller, shape_frame_pointer, finds its frame
        // by: garbage there must end the walk at the caller, not follow the garbage.
        PeStackDump.DumpedThread t = dump.threads().get("every-shape");
        List<DumpedWalk.Frame> whole = walk(t).frames();
        int framePointerFrame = EXPECTED.get("every-shape").indexOf("unwind_shapes.exe!shape_frame_pointer");
        long from = whole.get(framePointerFrame - 1).sp();
        long to = whole.get(framePointerFrame).sp();
        List<Long> failedSlots = new ArrayList<>();
        for (long slot = from; slot < to; slot += 8) {
            if (walk(t, corrupted(t, slot), t.stackHigh()).end() == WalkedStack.End.UNWIND_FAILED) {
                failedSlots.add(slot);
            }
        }

        assertThat(failedSlots).as("slots of shape_nonvolatile's frame whose corruption fails an unwind").hasSize(1);
        DumpedWalk walk = walk(t, corrupted(t, failedSlots.get(0)), t.stackHigh());
        assertThat(walk.frames()).containsExactlyElementsOf(whole.subList(0, framePointerFrame + 1));
        assertThat(walk.marked()).isTrue();
    }

    @Test
    void aStackCutShortEndsInAFailedUnwindAtTheCut() {
        // The PE unwinder checks the caller's rsp against the stack's limits itself, as RtlVirtualUnwind2 does.
        PeStackDump.DumpedThread t = dump.threads().get("every-shape");
        List<DumpedWalk.Frame> whole = walk(t).frames();
        int kept = 5;

        DumpedWalk walk = walk(t, t.stack(), whole.get(kept).sp());

        assertThat(walk.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);
        assertThat(walk.marked()).isTrue();
        assertThat(walk.frames()).containsExactlyElementsOf(whole.subList(0, kept));
    }

    @Test
    void aCrtThreadIsWalkedToItsStartWhereWineNamesANativeUcrtbaseForItsBuiltinOne() throws Exception {
        // A JVM's bin holds Microsoft's ucrtbase.dll; Wine maps its own builtin ucrtbase instead, under that file's
        // name. Read by that file's .pdata, the builtin's thread start was taken for the stack's first frame.
        WindowsToolchain wine = WindowsToolchain.require();
        Path jreUcrtbase = wine.javaExe().resolveSibling("ucrtbase.dll");
        assumeTrue(Files.isRegularFile(jreUcrtbase), "the Windows JRE has no ucrtbase.dll of its own: " + jreUcrtbase);
        if (besideNativeUcrtbase == null) {
            besideNativeUcrtbase = runTheProgram(wine, Files.createDirectories(dir.resolve("native-ucrtbase")),
                    List.of(jreUcrtbase));
        }
        PeStackDump.Module ucrtbase = besideNativeUcrtbase.dump().modules().stream()
                .filter(m -> m.fileName().equals("ucrtbase.dll")).findFirst().orElseThrow();
        assumeTrue(ucrtbase.notItsFile(), "this Wine loaded the native ucrtbase.dll it found: " + ucrtbase);
        assertThat(ucrtbase.windowsPath()).as("the module is named by the native file")
                .isEqualTo(wine.windowsPath(dir.resolve("native-ucrtbase").resolve("ucrtbase.dll")));
        DumpedProcess beside = besideNativeUcrtbase.process();
        PeStackDump.DumpedThread t = besideNativeUcrtbase.dump().threads().get("crt-thread");

        DumpedWalk ours = DumpedWalk.of(beside, t);

        String both = describeBoth(beside, ours, t);
        assertThat(ours.end()).as(both).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(names(beside, ours.frames(), EXPECTED.get("crt-thread"))).as(both)
                .containsExactlyElementsOf(EXPECTED.get("crt-thread"));
        // DbgHelp reads the named file too, and stops in ucrtbase; as far as it goes, it agrees.
        List<DumpedWalk.Frame> oracle = t.walk().stream().map(f -> new DumpedWalk.Frame(f.pc(), f.sp())).toList();
        assertThat(ours.frames().subList(0, Math.min(oracle.size(), ours.frames().size()))).as(both)
                .containsExactlyElementsOf(oracle);
    }

    private static byte[] corrupted(PeStackDump.DumpedThread t, long slot) {
        byte[] copy = t.stack().clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putLong((int) (slot - t.stackStart()), GARBAGE);
        return copy;
    }
}
