package io.mixflame.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows read in place, as a module index holds them: used as they are when sound, refused when not. */
class MappedSymbolTableTest {
    private static final ByteBuffer STRINGS = ByteBuffer.wrap("\0alpha\0beta\0".getBytes(StandardCharsets.UTF_8));

    private static SymbolTable built() {
        SymbolTableBuilder b = new SymbolTableBuilder();
        int t = b.strings(STRINGS);
        b.add(0x2000, 0x10, t, 7, false);
        b.add(0x1000, 0x20, t, 1, false);
        return b.build();
    }

    private static ByteBuffer rowsOf(SymbolTable table) {
        ByteBuffer out = ByteBuffer.allocateDirect(table.size() * SymbolTable.ROW_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        table.copyRows(0, table.size(), out);
        return out.flip();
    }

    @Test
    void rowsCopiedOutReadBackAsTheSameTable() {
        SymbolTable mapped = SymbolTable.mapped(rowsOf(built()), List.of(STRINGS));
        assertThat(mapped.size()).isEqualTo(2);
        assertThat(mapped.name(mapped.indexOf(0x1010))).isEqualTo("alpha");
        assertThat(mapped.name(mapped.indexOf(0x2000))).isEqualTo("beta");
        assertThat(mapped.indexOf(0x2010)).isEqualTo(-1);
    }

    @Test
    void unsortedRowsAreRefused() {
        ByteBuffer rows = rowsOf(built());
        rows.putLong(0, 0x3000);
        assertThatThrownBy(() -> SymbolTable.mapped(rows, List.of(STRINGS)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sorted");
    }

    @Test
    void aNameInATableNotGivenIsRefused() {
        ByteBuffer rows = rowsOf(built());
        assertThatThrownBy(() -> SymbolTable.mapped(rows, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("string table");
        rows.putLong(2 * Long.BYTES, SymbolNames.reference(0, 7, 1));
        assertThatThrownBy(() -> SymbolTable.mapped(rows, List.of(STRINGS)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bytesThatAreNotWholeRowsAreRefused() {
        ByteBuffer rows = rowsOf(built()).limit(SymbolTable.ROW_BYTES + 8);
        assertThatThrownBy(() -> SymbolTable.mapped(rows, List.of(STRINGS))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRowsAreNotCopiedAndCannotBeWritten() {
        ByteBuffer rows = rowsOf(built());
        SymbolTable mapped = SymbolTable.mapped(rows, List.of(STRINGS));
        // The same bytes: what another process maps is what this one reads.
        rows.putLong(SymbolTable.ROW_BYTES + Long.BYTES, 0x40);
        assertThat(mapped.indexOf(0x2030)).isEqualTo(1);
        assertThat(rows.isReadOnly()).isFalse();
    }
}
