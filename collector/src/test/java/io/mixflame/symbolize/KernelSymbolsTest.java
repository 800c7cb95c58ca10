package io.mixflame.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code /proc/kallsyms} as the kernel writes it: its own symbols in address order (functions and data mixed), then
 * modules' (tagged, in any order), or zeros for an unprivileged reader.
 */
class KernelSymbolsTest {

    private static KernelSymbols parse(String text) {
        return KernelSymbols.parse(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static final String KALLSYMS = String.join("\n",
            "ffffffff81000000 T _stext",
            "ffffffff81000100 D some_data",
            "ffffffff81000200 T do_syscall_64",
            "ffffffff81000300 t futex_wait",
            "ffffffff81000380 r futex_table",
            "ffffffff81000400 W weak_thing",
            "ffffffff81000500 T schedule",
            "ffffffffc0a01000 t nf_hook_slow\t[nf_tables]",
            "ffffffffc0a00000 T nft_do_chain\t[nf_tables]",
            "ffffffffc0b00000 t xfs_buf_read\t[xfs]",
            "");

    @Test
    void functionsAreFoundByAddressInTheKernelsLinesAndInModules() {
        KernelSymbols symbols = parse(KALLSYMS);
        assertThat(symbols.moduleFunctions()).isEqualTo(3);
        assertThat(symbols.name(0xffffffff81000000L)).isEqualTo("_stext");
        assertThat(symbols.name(0xffffffff81000150L)).as("data symbols are not functions").isEqualTo("_stext");
        assertThat(symbols.name(0xffffffff81000210L)).isEqualTo("do_syscall_64");
        assertThat(symbols.name(0xffffffff81000390L)).as("past a data symbol").isEqualTo("futex_wait");
        assertThat(symbols.name(0xffffffff81000450L)).as("weak symbols are not text").isEqualTo("futex_wait");
        assertThat(symbols.name(0xffffffff81000600L)).isEqualTo("schedule");
        assertThat(symbols.name(0xffffffffc0a00010L)).isEqualTo("nft_do_chain");
        assertThat(symbols.name(0xffffffffc0a01010L)).isEqualTo("nf_hook_slow");
        assertThat(symbols.name(0xffffffffc0b00020L)).isEqualTo("xfs_buf_read");
        assertThat(symbols.name(0xffffffff80000000L)).isEqualTo("[kernel 0xffffffff80000000]");
    }

    @Test
    void everyLineOfAKernelOnlyFileIsFoundWhereverItLies() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            text.append(String.format("%016x %s fn_%d%n", 0xffffffff81000000L + 16L * i, i % 7 == 3 ? "d" : "t", i));
        }
        KernelSymbols symbols = parse(text.toString());
        for (int i = 0; i < 5000; i++) {
            int expected = i % 7 == 3 ? i - 1 : i;
            assertThat(symbols.name(0xffffffff81000000L + 16L * i + 5)).isEqualTo("fn_" + expected);
        }
    }

    @Test
    void moduleLinesInAnyOrderAreSortedWithTheKernelsAndOverlongLinesAreSkipped() {
        StringBuilder text = new StringBuilder();
        java.util.Random random = new java.util.Random(7);
        java.util.List<Integer> order = new java.util.ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, random);
        for (int i : order) {
            text.append(String.format("%016x t mod_fn_%d\t[mod%d]%n", 0xffffffffc0000000L + 64L * i, i, i % 5));
        }
        text.append("ffffffffc0000010 t ").append("x".repeat(5000)).append('\n');
        KernelSymbols symbols = parse(text.toString());
        assertThat(symbols.moduleFunctions()).isEqualTo(3000);
        assertThat(symbols.functions()).as("the overlong line is no symbol").isEqualTo(3000);
        for (int i = 0; i < 3000; i++) {
            assertThat(symbols.name(0xffffffffc0000000L + 64L * i + 63)).isEqualTo("mod_fn_" + i);
        }
    }

    @Test
    void aFileWithoutAddressesNamesFramesByAddress() {
        KernelSymbols symbols = parse("0000000000000000 T _stext\n0000000000000000 t futex_wait\n");
        assertThat(symbols.name(0xffffffff81000000L)).isEqualTo("[kernel 0xffffffff81000000]");
        assertThat(parse("").name(0xffffffff81000000L)).isEqualTo("[kernel 0xffffffff81000000]");
        assertThat(parse("garbage\nmore garbage").name(0x1000)).isEqualTo("[kernel 0x1000]");
    }

    @Test
    void theRealFileNamesWhatItsOwnLinesSay() throws Exception {
        java.util.Map<Long, java.util.Set<String>> functions = new java.util.HashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/kallsyms"), StandardCharsets.ISO_8859_1)) {
            char type = line.length() > 19 ? line.charAt(17) : ' ';
            if ((type == 't' || type == 'T') && line.charAt(16) == ' ' && !line.startsWith("0000000000000000")) {
                int tab = line.indexOf('\t');
                functions.computeIfAbsent(Long.parseUnsignedLong(line.substring(0, 16), 16), k -> new java.util.HashSet<>())
                        .add(tab < 0 ? line.substring(19) : line.substring(19, tab));
            }
        }
        // An unprivileged reader sees only zeros: then this test did not run, and says so.
        org.junit.jupiter.api.Assumptions.assumeFalse(functions.isEmpty(), "/proc/kallsyms shows no addresses here");
        KernelSymbols symbols = KernelSymbols.load();
        int i = 0;
        for (var e : functions.entrySet()) {
            if (i++ % 101 == 0) {
                assertThat(e.getValue()).as("names at 0x%x", e.getKey()).contains(symbols.name(e.getKey()));
            }
        }
    }
}
