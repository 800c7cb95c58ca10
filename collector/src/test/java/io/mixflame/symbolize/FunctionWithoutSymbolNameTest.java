package io.mixflame.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.ExportedSymbols;
import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.SymbolTable;
import io.mixflame.image.UnwindData;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Code without a symbol is named once per function, by the start of the function its module's unwind data
 * describes (an FDE, a RUNTIME_FUNCTION), and by the module alone where no function is described; the pc's own
 * offset stays with the frame for outputs that keep addresses.
 */
class FunctionWithoutSymbolNameTest {
    private static final long BASE = 0x7f00_0000_0000L;

    /** A stripped module whose unwind data describes two functions: [0x1000, 0x1100) and [0x2000, 0x2400). */
    private static final ModuleImage STRIPPED = new ModuleImage() {
        @Override
        public String name() {
            return "libstripped.so";
        }

        @Override
        public String path() {
            return "/tmp/libstripped.so";
        }

        @Override
        public SymbolTable symbols() {
            return SymbolTable.EMPTY;
        }

        @Override
        public ExportedSymbols exports() {
            return null;
        }

        @Override
        public UnwindData unwindData() {
            return new UnwindData() {
                @Override
                public long functionStart(long address) {
                    if (address >= 0x1000 && address < 0x1100) {
                        return 0x1000;
                    }
                    return address >= 0x2000 && address < 0x2400 ? 0x2000 : -1;
                }
            };
        }

        @Override
        public long loadBias(long mappingStart, long fileOffset) {
            return mappingStart - fileOffset;
        }
    };

    private final NativeSymbolizer symbolizer = new NativeSymbolizer(new FixedModuleMap(new ModuleSnapshot(List.of(),
            List.of(new LoadedModule(STRIPPED, BASE, BASE + 0x10000, BASE))), "libjvm.so"));

    @Test
    void twoAddressesOfOneFunctionHaveOneNameAndKeepTheirOwnOffsets() {
        SymbolizedFrame a = symbolizer.symbolize(BASE + 0x2010, false);
        SymbolizedFrame b = symbolizer.symbolize(BASE + 0x23f0, true);

        assertThat(a.displayName()).isEqualTo("[libstripped.so+0x2000]");
        assertThat(b.displayName()).isEqualTo(a.displayName());
        assertThat(a.moduleOffset()).isEqualTo(0x2010);
        assertThat(b.moduleOffset()).isEqualTo(0x23f0);
    }

    @Test
    void aReturnAddressJustPastAFunctionIsNamedByTheFunctionOfItsCall() {
        // The call was the function's last instruction: pc - 1 is still inside it.
        assertThat(symbolizer.symbolize(BASE + 0x1100, true).displayName()).isEqualTo("[libstripped.so+0x1000]");
        assertThat(symbolizer.symbolize(BASE + 0x1100, false).displayName()).isEqualTo("[libstripped.so]");
    }

    @Test
    void anAddressNoFunctionCoversIsNamedByItsModuleAlone() {
        assertThat(symbolizer.symbolize(BASE + 0x5000, false).displayName()).isEqualTo("[libstripped.so]");
        assertThat(symbolizer.symbolize(BASE + 0x5000, false).moduleOffset()).isEqualTo(0x5000);
    }

    @Test
    void anAddressOutsideEveryModuleIsItsHex() {
        assertThat(symbolizer.symbolize(0x1234, false).displayName()).isEqualTo("[0x1234]");
    }
}
