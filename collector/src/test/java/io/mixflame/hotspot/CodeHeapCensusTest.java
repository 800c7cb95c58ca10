package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.ModuleCache;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The census of this JVM's own code heaps (mixflame's native library, plain loads), taken once walks fall behind
 * their samples: every blob it lists is the blob the code cache's index finds there, and a method just compiled is
 * among them by its Method*. And the census of another JVM's (read from outside, as {@code record --pid} reads it):
 * the same, in a few dozen reads.
 */
@EnabledOnOs(OS.LINUX)
class CodeHeapCensusTest {
    private static volatile long sink;

    @Test
    void theCensusListsTheBlobsTheIndexFindsAndAMethodJustCompiled() throws Exception {
        long sum = 0;
        for (int i = 0; i < 200_000; i++) {
            sum += censusTarget(i);
        }
        sink = sum;
        LinuxProcessMemory memory = new LinuxProcessMemory(OwnPid.get());
        ProcModuleMap modules = new ProcModuleMap(OwnPid.get(), memory, ModuleCache.shared());
        modules.refresh();
        HotSpotVm vm = HotSpotVm.attach(modules, new VmReader(memory)).orElseThrow();
        vm.sampleTakenAt(System.nanoTime());
        assertThat(vm.codeHistory()).as("a walk that keeps up takes no census, nor binds the native library for one")
                .isNull();
        vm.sampleTakenAt(System.nanoTime() - CodeCacheIndex.CENSUS_LAG_NANOS);
        assertThat(vm.codeHistory()).as("the history is kept for the JVM's own code cache once a walk runs late")
                .isNotNull();
        List<CodeCacheHistory.Entry> blobs = vm.codeHistory().live();

        assertThat(vm.codeHistory().censuses()).isEqualTo(1);
        assertThat(blobs.size()).as("blobs in a JVM that has run tests").isGreaterThan(200);
        int agree = agreeing(vm, blobs);
        boolean found = false;
        for (CodeCacheHistory.Entry e : blobs) {
            CodeBlobInfo blob = vm.blobAt(e.start + (e.end - e.start) / 2);
            if (blob != null && blob.kind() == BlobKind.NMETHOD && blob.method() == e.method) {
                JavaMethod m = vm.method(e.method);
                found |= m != null && m.name().equals("censusTarget");
            }
        }
        // The JIT goes on compiling and freeing between the census and the lookups: a few may differ.
        assertThat(agree).as("of %d blobs, those the index finds the same", blobs.size())
                .isGreaterThanOrEqualTo(blobs.size() * 99 / 100);
        assertThat(found).as("the compiled censusTarget among the nmethods").isTrue();
    }

    @Test
    void anotherJvmsCensusListsTheBlobsTheIndexFindsInAFewDozenReads() throws Exception {
        try (ChildProcess app = ChildProcess.java(Path.of(System.getProperty("java.home")), List.of(),
                "io.mixflame.testapp.NamedThreadApp");
             LinuxProcessMemory memory = new LinuxProcessMemory(app.pid())) {
            app.readUntil("ready");
            ProcModuleMap modules = new ProcModuleMap(app.pid(), memory, ModuleCache.shared());
            modules.refresh();
            HotSpotVm vm = HotSpotVm.attach(modules, new VmReader(memory)).orElseThrow();
            vm.sampleTakenAt(System.nanoTime() - CodeCacheIndex.CENSUS_LAG_NANOS);
            assertThat(vm.codeHistory()).as("the history of another JVM's code cache, once a walk runs late")
                    .isNotNull();
            // The second census, of a JVM now idle: the first also reads its newest compilations' blobs.
            Thread.sleep(CodeCacheHistory.CENSUS_NANOS / 1_000_000 + 20);
            long before = memory.systemReads();
            vm.sampleTakenAt(System.nanoTime() - CodeCacheIndex.CENSUS_LAG_NANOS);
            long reads = memory.systemReads() - before;
            assertThat(vm.codeHistory().censuses()).as("censuses not cut short").isEqualTo(2);
            List<CodeCacheHistory.Entry> blobs = vm.codeHistory().live();
            // A JVM that has only started: its interpreter, stubs and adapters, and what it compiled so far.
            assertThat(blobs.size()).isGreaterThan(100);
            // The map, then gathered reads of the blocks and the blobs (a read a block would be thousands).
            assertThat(reads).as("reads for a census of %d blobs", blobs.size()).isLessThan(60);
            int agree = agreeing(vm, blobs);
            assertThat(agree).as("of %d blobs, those the index finds the same", blobs.size())
                    .isGreaterThanOrEqualTo(blobs.size() * 99 / 100);
        }
    }

    /** How many of a census's blobs the code cache's index finds the same at their middle: start, end and method. */
    static int agreeing(HotSpotVm vm, List<CodeCacheHistory.Entry> blobs) {
        int agree = 0;
        for (CodeCacheHistory.Entry e : blobs) {
            CodeBlobInfo blob = vm.blobAt(e.start + (e.end - e.start) / 2);
            if (blob != null && blob.start() == e.start && blob.end() == e.end
                    && (!blob.isJava() || blob.method() == e.method)) {
                agree++;
            }
        }
        return agree;
    }

    private static long censusTarget(int i) {
        return (long) i * i ^ (i >>> 3);
    }
}
