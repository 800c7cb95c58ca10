package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.FakeProcessMemory;
import org.junit.jupiter.api.Test;

/**
 * The PcDescs of an nmethod read whole, once, and searched as {@link PcDescSearch} searches them in place; a new
 * description of the same block (freed and reused) is read again.
 */
class PcDescTableTest {
    /** JDK 17's PcDesc: {@code _pc_offset}, {@code _scope_decode_offset}, {@code _obj_decode_offset}, flags. */
    private static final int SIZE = 16;
    private static final int PC = 0;
    private static final int SCOPE = 4;
    private static final long BLOB = 0x7f00_0000_1000L;
    private static final long PCS = BLOB + 0x800;

    private final FakeProcessMemory memory = new FakeProcessMemory().map(BLOB, 0x2000);
    private final PcDescTable table = new PcDescTable(memory, SIZE, PC, SCOPE);

    /** PcDescs at {@code pcOffsets}, the i-th with scope offset {@code base + i}. */
    private CodeBlobInfo nmethod(int base, int... pcOffsets) {
        for (int i = 0; i < pcOffsets.length; i++) {
            memory.writeInt(PCS + (long) i * SIZE + PC, pcOffsets[i]);
            memory.writeInt(PCS + (long) i * SIZE + SCOPE, base + i);
        }
        return new CodeBlobInfo(BLOB, BLOB + 0x1000, BlobKind.NMETHOD, "nmethod", BLOB + 0x100, BLOB + 0x700, 4, 16,
                0x1234_0000L, 4, 0, 0, 0, PCS, PCS + (long) pcOffsets.length * SIZE, BLOB + 0x900, BLOB + 0xa00, 0);
    }

    @Test
    void picksThePcDescAtOrAfterThePcAsTheSearchInPlaceDoes() {
        CodeBlobInfo blob = nmethod(100, -1, 564, 1172, 1732, 1879, 2049);
        assertThat(table.scopeOffset(blob, 564)).isEqualTo(101);
        assertThat(table.scopeOffset(blob, 565)).isEqualTo(102);
        assertThat(table.scopeOffset(blob, 2049)).isEqualTo(105);
        assertThat(table.scopeOffset(blob, 2050)).as("after the last").isZero();
    }

    @Test
    void readsTheArrayOnceForEveryPcOfTheSameNmethod() {
        CodeBlobInfo blob = nmethod(100, -1, 564, 1172, 1732, 1879, 2049);
        long before = memory.systemReads();
        for (int pc = 0; pc < 2100; pc += 7) {
            table.scopeOffset(blob, pc);
        }
        assertThat(memory.systemReads() - before).isEqualTo(1);
    }

    @Test
    void anotherDescriptionOfTheSameBlockIsReadAgain() {
        CodeBlobInfo first = nmethod(100, -1, 564, 1172);
        assertThat(table.scopeOffset(first, 600)).isEqualTo(102);
        CodeBlobInfo reused = nmethod(200, -1, 40, 700);
        assertThat(table.scopeOffset(reused, 600)).isEqualTo(202);
        assertThat(table.scopeOffset(first, 600)).as("the old one again: read again, from what the block holds now")
                .isEqualTo(202);
    }

    @Test
    void anArrayThatCannotBeReadWholeIsNotHeld() {
        CodeBlobInfo blob = nmethod(100, -1, 564);
        memory.unmap(PCS, 1);
        assertThat(table.scopeOffset(blob, 10)).isEqualTo(PcDescTable.NOT_HELD);
        CodeBlobInfo huge = new CodeBlobInfo(BLOB, BLOB + 0x1000, BlobKind.NMETHOD, "nmethod", BLOB, BLOB, 4, 16, 0, 4,
                0, 0, 0, PCS, PCS + PcDescTable.MAX_BYTES + SIZE, 0, 0, 0);
        assertThat(table.scopeOffset(huge, 10)).isEqualTo(PcDescTable.NOT_HELD);
    }
}
