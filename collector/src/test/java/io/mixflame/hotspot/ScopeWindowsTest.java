package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.process.MemoryReadException;
import io.mixflame.testsupport.FakeProcessMemory;
import org.junit.jupiter.api.Test;

/**
 * An nmethod's scope records and Method* array read a window at a time: the records of the methods a scope was
 * inlined into (before it) and of other pcs of the same nmethod come from the same read.
 */
class ScopeWindowsTest {
    private static final long BLOB = 0x7f00_0010_0000L;
    private static final long SCOPES = BLOB + 0x4000;
    private static final long METADATA = BLOB + 0x3000;

    private final FakeProcessMemory memory = new FakeProcessMemory().map(BLOB, 0x8000);
    private final ScopeWindows windows = new ScopeWindows(memory);

    private static CodeBlobInfo nmethod(long start) {
        return new CodeBlobInfo(start, start + 0x8000, BlobKind.NMETHOD, "nmethod", start + 0x100, start + 0x2000, 4,
                16, 0x1234_0000L, 4, 0, 0, 0, start + 0x6000, start + 0x6100, start + 0x4000, start + 0x3000, 0);
    }

    @Test
    void aRecordAndThoseBeforeItComeFromOneRead() throws Exception {
        CodeBlobInfo blob = nmethod(BLOB);
        memory.writeByte(SCOPES + 900, 0x11).writeByte(SCOPES + 300, 0x22).writeByte(SCOPES + 40, 0x33);
        long before = memory.systemReads();
        assertThat(windows.at(blob, 900).get(0)).isEqualTo((byte) 0x11);
        assertThat(windows.at(blob, 300).get(0)).isEqualTo((byte) 0x22);
        assertThat(windows.at(blob, 40).get(0)).isEqualTo((byte) 0x33);
        assertThat(memory.systemReads() - before).isEqualTo(1);
    }

    @Test
    void aRecordPastTheWindowIsReadAgain() throws Exception {
        CodeBlobInfo blob = nmethod(BLOB);
        int far = ScopeWindows.WINDOW + 100;
        memory.writeByte(SCOPES + far, 0x44);
        windows.at(blob, 10);
        long before = memory.systemReads();
        assertThat(windows.at(blob, far).get(0)).isEqualTo((byte) 0x44);
        assertThat(memory.systemReads() - before).isEqualTo(1);
    }

    @Test
    void methodsComeFromOneReadOfTheMetadataArray() throws Exception {
        CodeBlobInfo blob = nmethod(BLOB);
        memory.writeLong(METADATA, 0xaaa0).writeLong(METADATA + 8, 0xbbb0)
                .writeLong(METADATA + 8L * (ScopeWindows.METHODS + 2), 0xccc0);
        long before = memory.systemReads();
        assertThat(windows.method(blob, 1)).isEqualTo(0xbbb0);
        assertThat(windows.method(blob, 0)).isEqualTo(0xaaa0);
        assertThat(memory.systemReads() - before).isEqualTo(1);
        assertThat(windows.method(blob, ScopeWindows.METHODS + 2)).as("past what is held: read").isEqualTo(0xccc0);
    }

    @Test
    void anotherDescriptionOfTheBlockIsReadAgain() throws Exception {
        windows.at(nmethod(BLOB), 100);
        memory.writeByte(SCOPES + 100, 0x55).writeLong(METADATA, 0xddd0);
        CodeBlobInfo reused = nmethod(BLOB);
        assertThat(windows.at(reused, 100).get(0)).isEqualTo((byte) 0x55);
        assertThat(windows.method(reused, 0)).isEqualTo(0xddd0);
    }

    @Test
    void aRecordAtTheStartOfReadableMemoryIsReadAlone() throws Exception {
        long start = 0x7f00_0100_0000L;
        FakeProcessMemory edge = new FakeProcessMemory().map(start + 0x5000, 0x1000)
                .writeByte(start + 0x4000 + 0x1010, 0x66);
        CodeBlobInfo blob = nmethod(start);
        ScopeWindows w = new ScopeWindows(edge);
        // The window would start a page lower, in memory that cannot be read.
        assertThat(w.at(blob, 0x1010).get(0)).isEqualTo((byte) 0x66);
    }

    @Test
    void nothingReadableThereFails() {
        CodeBlobInfo blob = nmethod(0x7f00_0200_0000L);
        assertThatThrownBy(() -> windows.at(blob, 8)).isInstanceOf(MemoryReadException.class);
    }
}
