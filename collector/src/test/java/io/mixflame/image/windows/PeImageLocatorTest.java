package io.mixflame.image.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.UnwindInfoBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which image a loaded module is read from: its file when that is the build the process's memory holds, else the
 * loaded image itself, as when Wine maps its builtin DLL under a native file's name. The builds told apart here
 * differ in link stamp and in their one function's range, so the unwind table shows which was read.
 */
class PeImageLocatorTest {
    private static final long BASE = 0x7ff8_1000_0000L;

    @TempDir
    Path dir;
    private final FakeProcessMemory memory = new FakeProcessMemory();
    private final PeImageLocator locator = new PeImageLocator(42, memory, new ModuleCache(16), DebugSymbolSource.NONE);

    /** A build whose one function is {@code [0x1000, end)}. */
    private static PeImageBuilder build(long stamp, long end) {
        PeImageBuilder b = new PeImageBuilder().imageBase(BASE).timeDateStamp(stamp);
        b.section(".text", new byte[0x200]);
        b.unwindTables(List.of(new PeImageBuilder.Function(0x1000, end, new UnwindInfoBytes().toByteArray())));
        return b;
    }

    private Path file(PeImageBuilder b) throws IOException {
        return Files.write(dir.resolve("ucrtbase.dll"), b.build());
    }

    private static long functionEnd(ModuleImage image) {
        PeUnwindTable table = (PeUnwindTable) image.unwindData();
        return table.find(0x1010).map(RuntimeFunction::end).orElse(-1L);
    }

    @Test
    void theFileIsReadWhenItIsTheBuildLoaded() throws IOException {
        PeImageBuilder b = build(1, 0x1100);
        Path file = file(b);
        // Only the headers are in memory: the image can only have come from the file.
        memory.write(BASE, Arrays.copyOf(b.buildLoaded(), 0x1000));

        ModuleImage image = locator.imageOf(file.toString(), BASE, b.buildLoaded().length);

        assertThat(functionEnd(image)).isEqualTo(0x1100);
        assertThat(image.path()).isEqualTo(file.toString());
    }

    @Test
    void anotherBuildInTheFileIsPassedOverForTheLoadedImage() throws IOException {
        Path file = file(build(1, 0x1100));
        byte[] loaded = build(2, 0x1180).buildLoaded();
        memory.write(BASE, loaded);

        ModuleImage image = locator.imageOf(file.toString(), BASE, loaded.length);

        assertThat(functionEnd(image)).as("the loaded build's function").isEqualTo(0x1180);
        assertThat(image.name()).isEqualTo("ucrtbase.dll");
    }

    @Test
    void aFileThatCannotBeReadIsPassedOverForTheLoadedImage() {
        byte[] loaded = build(2, 0x1180).buildLoaded();
        memory.write(BASE, loaded);

        ModuleImage image = locator.imageOf(dir.resolve("missing.dll").toString(), BASE, loaded.length);

        assertThat(functionEnd(image)).isEqualTo(0x1180);
    }

    @Test
    void withoutLoadedHeadersTheFileIsRead() throws IOException {
        PeImageBuilder b = build(1, 0x1100);
        Path file = file(b);

        ModuleImage image = locator.imageOf(file.toString(), BASE, b.buildLoaded().length);

        assertThat(functionEnd(image)).isEqualTo(0x1100);
    }

    @Test
    void aModuleLoadIsLocatedOnce() throws IOException {
        Path file = file(build(1, 0x1100));
        byte[] loaded = build(2, 0x1180).buildLoaded();
        memory.write(BASE, loaded);
        ModuleImage first = locator.imageOf(file.toString(), BASE, loaded.length);
        memory.unmap(BASE, loaded.length);

        ModuleImage again = locator.imageOf(file.toString(), BASE, loaded.length);

        assertThat(again).isSameAs(first);
        assertThat(functionEnd(again)).isEqualTo(0x1180);
    }
}
