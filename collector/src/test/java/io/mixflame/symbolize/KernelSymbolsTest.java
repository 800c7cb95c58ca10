package io.mixflame.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code /proc/kallsyms} as the kernel writes it: unsorted module symbols, other symbol types, hidden addresses. */
class KernelSymbolsTest {

    private static KernelSymbols parse(String text) {
        return KernelSymbols.parse(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void textSymbolsAreFoundByAddressWhateverTheirOrderInTheFile() {
        KernelSymbols symbols = parse(String.join("\n",
                "ffffffffc0a01000 t nf_hook_slow\t[nf_tables]",
                "ffffffff81000000 T _stext",
                "ffffffff81000100 D some_data",
                "ffffffff81000200 T do_syscall_64",
                "ffffffff81000300 t futex_wait",
                "0000000000000000 T hidden_when_unprivileged",
                "garbage line",
                "ffffffffc0a00000 T nft_do_chain\t[nf_tables]",
                ""));
        assertThat(symbols.size()).isEqualTo(5);
        assertThat(symbols.name(0xffffffff81000000L)).isEqualTo("_stext");
        assertThat(symbols.name(0xffffffff81000150L)).as("data symbols are not functions").isEqualTo("_stext");
        assertThat(symbols.name(0xffffffff81000210L)).isEqualTo("do_syscall_64");
        assertThat(symbols.name(0xffffffff81000400L)).isEqualTo("futex_wait");
        assertThat(symbols.name(0xffffffffc0a00010L)).isEqualTo("nft_do_chain");
        assertThat(symbols.name(0xffffffffc0a01010L)).isEqualTo("nf_hook_slow");
        assertThat(symbols.name(0xffffffff80000000L)).isEqualTo("[kernel 0xffffffff80000000]");
    }

    @Test
    void aFileWithoutAddressesNamesFramesByAddress() {
        KernelSymbols symbols = parse("0000000000000000 T _stext\n0000000000000000 t futex_wait\n");
        assertThat(symbols.size()).isZero();
        assertThat(symbols.name(0xffffffff81000000L)).isEqualTo("[kernel 0xffffffff81000000]");
        assertThat(parse("").size()).isZero();
    }
}
