package io.mixflame.symbolize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.mixflame.image.index.IndexRefusedException;
import io.mixflame.image.index.IndexSection;
import io.mixflame.image.index.LongArraySection;
import io.mixflame.image.index.ModuleIndex;
import io.mixflame.image.index.ModuleIndexKey;
import io.mixflame.image.index.ModuleIndexStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel's symbols written to a module index and mapped back name every address as the parsed table does. */
class KernelSymbolIndexTest {
    private static final long TEXT = 0xffffffff81000000L;
    private static final long MODULES = 0xffffffffc0000000L;
    private static final ModuleIndexKey KEY = KernelSymbolIndex.key("3c0e-boot", List.of("zlib 16384 0 - Live 0x0"),
            TEXT);

    @TempDir
    Path dir;

    /** Enough functions that the names fill several 64 KiB chunks; module lines after the kernel's, out of order. */
    private static String kallsyms() {
        StringBuilder text = new StringBuilder("0000000000000000 A fixed_percpu_data\n");
        for (int i = 0; i < 6000; i++) {
            text.append(String.format(Locale.ROOT, "%016x %s kernel_function_number_%d_with_a_long_name%n",
                    TEXT + 64L * i, i % 2 == 0 ? "T" : "t", i));
        }
        for (int i = 1999; i >= 0; i--) {
            text.append(String.format(Locale.ROOT, "%016x t module_function_%d\t[zlib]%n", MODULES + 32L * i, i));
        }
        return text.toString();
    }

    private static List<Long> probes() {
        List<Long> probes = new ArrayList<>(List.of(TEXT - 1, TEXT, TEXT + 1, MODULES + 31, MODULES + 32L * 1999 + 5,
                -1L));
        for (long a = TEXT; a < TEXT + 64L * 6000; a += 64L * 997 + 13) {
            probes.add(a);
        }
        return probes;
    }

    @Test
    void aTableMappedFromItsIndexNamesEveryAddressAsTheParsedOne() throws IOException, IndexRefusedException {
        KernelSymbols parsed = KernelSymbols.parse(kallsyms().getBytes(StandardCharsets.ISO_8859_1));
        assertThat(parsed.nameChunks()).as("names over several chunks").hasSizeGreaterThan(3);
        ModuleIndexStore store = ModuleIndexStore.at(dir);
        assertThat(store.write(KEY, KernelSymbolIndex.sections(parsed))).isTrue();
        ModuleIndex index = store.open(KEY).orElseThrow();
        KernelSymbols mapped = KernelSymbolIndex.fromIndex(index);
        assertThat(mapped.functions()).isEqualTo(8000);
        assertThat(mapped.moduleFunctions()).isEqualTo(2000);
        assertThat(mapped.firstLineAddress()).isEqualTo(TEXT);
        for (long probe : probes()) {
            assertThat(mapped.name(probe)).as("0x%x", probe).isEqualTo(parsed.name(probe));
        }
        assertThat(mapped.name(TEXT + 64L * 5999 + 1)).isEqualTo("kernel_function_number_5999_with_a_long_name");
        assertThat(mapped.name(MODULES + 32L * 1234)).isEqualTo("module_function_1234");
    }

    @Test
    void anIndexWhoseCountsDisagreeWithItsSectionsIsRefused() throws IOException {
        KernelSymbols parsed = KernelSymbols.parse(kallsyms().getBytes(StandardCharsets.ISO_8859_1));
        List<IndexSection> sections = new ArrayList<>(KernelSymbolIndex.sections(parsed));
        sections.set(0, new LongArraySection(KernelSymbolIndex.HEADER, 4,
                new long[] {parsed.functions() + 1, parsed.moduleFunctions(), TEXT, parsed.nameBytes()}));
        ModuleIndexStore store = ModuleIndexStore.at(dir);
        assertThat(store.write(KEY, sections)).isTrue();
        ModuleIndex index = store.open(KEY).orElseThrow();
        assertThatThrownBy(() -> KernelSymbolIndex.fromIndex(index)).isInstanceOf(IndexRefusedException.class);
    }

    @Test
    void theKeyChangesWithTheBootTheModulesAndThePlacementButNotWithUseCounts() {
        List<String> modules = List.of("zlib 16384 1 btrfs, Live 0xffffffffc0a00000", "nf_tables 286720 0 - Live "
                + "0xffffffffc0b00000");
        String name = KernelSymbolIndex.key("boot-a", modules, TEXT).fileName();
        assertThat(KernelSymbolIndex.key("boot-a", List.of("zlib 16384 3 btrfs,xfs, Live 0xffffffffc0a00000",
                "nf_tables 286720 2 - Live 0xffffffffc0b00000"), TEXT).fileName()).as("use counts").isEqualTo(name);
        assertThat(Stream.of(KernelSymbolIndex.key("boot-b", modules, TEXT),
                KernelSymbolIndex.key("boot-a", modules.subList(0, 1), TEXT),
                KernelSymbolIndex.key("boot-a", List.of(modules.get(0), "nf_tables 286720 0 - Live 0xffffffffc0c00000"),
                        TEXT),
                KernelSymbolIndex.key("boot-a", modules, TEXT + 0x200000)).map(ModuleIndexKey::fileName))
                .doesNotContain(name).doesNotHaveDuplicates();
    }

    @Test
    void theFirstFunctionLineIsFoundInTheFilesHead() {
        byte[] head = kallsyms().substring(0, 500).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(KernelSymbols.firstLineAddress(head, head.length)).isEqualTo(TEXT);
        byte[] hidden = "0000000000000000 T _stext\n0000000000000000 t foo\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(KernelSymbols.firstLineAddress(hidden, hidden.length)).as("an unprivileged reader").isZero();
    }

    @Test
    void thisHostsKernelSymbolsAreWrittenOnceAndThenMapped() throws IOException {
        assumeThat(KernelSymbolIndex.key()).as("/proc/kallsyms with addresses (privileged), boot id and modules")
                .isPresent();
        ModuleIndexStore store = ModuleIndexStore.at(dir);
        KernelSymbols first = KernelSymbolIndex.load(store);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("k"))).hasSize(1);
        }
        KernelSymbols second = KernelSymbolIndex.load(store);
        assertThatThrownBy(() -> second.addresses().setLong(0, 0)).as("mapped from the index, read-only")
                .isInstanceOf(java.nio.ReadOnlyBufferException.class);
        assertThat(second.functions()).isEqualTo(first.functions()).isPositive();
        for (int i = 0; i < first.functions(); i += Math.max(1, first.functions() / 500)) {
            long address = first.addresses().getLong(i);
            assertThat(second.name(address)).isEqualTo(first.name(address));
        }
    }

    /** The words of a module line are what {@code split(" +")} of the trimmed line gives. */
    @Test
    void splitsModuleLinesAsARunOfSpacesWould() {
        for (String line : List.of("zlib 16384 0 - Live 0xffffffffc0a00000", "  nf_tables   286720 3 nft_ct,  Live 0x0  ",
                "", "   ", "one", "a b", " a  b ")) {
            String trimmed = line.trim();
            String[] expected = trimmed.isEmpty() ? new String[0] : trimmed.split(" +");
            assertThat(KernelSymbolIndex.words(line)).as(line).containsExactly(expected);
        }
    }
}
