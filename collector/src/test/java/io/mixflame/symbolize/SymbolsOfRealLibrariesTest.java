package io.mixflame.symbolize;

import io.mixflame.image.SymbolTable;
import io.mixflame.image.linux.ElfModuleImage;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.MemoryReadException;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.dwarf.CfiRule;
import io.mixflame.image.dwarf.RegisterRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Symbols, PLT names, demangling and CFI rules read from libraries of this machine. */
class SymbolsOfRealLibrariesTest {
    private static final Path LIBSTDCXX = Path.of("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
    private static final Path LIBJVM = Path.of(System.getProperty("java.home"), "lib/server/libjvm.so");

    @Test
    void cxxNamesAreDemangledByTheItaniumAbi() {
        assertThat(CxxDemangler.demangle("_ZN7mixtest6Walker4stepEi")).isEqualTo("mixtest::Walker::step(int)");
        assertThat(CxxDemangler.demangle("_ZNSt6vectorIiSaIiEE9push_backERKi@plt"))
                .isEqualTo("std::vector<int, std::allocator<int> >::push_back(int const&)@plt");
        assertThat(CxxDemangler.demangle("getpid")).isEqualTo("getpid");
        assertThat(CxxDemangler.demangle("_Znot a mangled name")).isEqualTo("_Znot a mangled name");
    }

    @Test
    void pltStubsAreNamedAfterTheirTargets() {
        ElfModuleImage jvm = new ElfModuleImage(LIBJVM.toString(), () -> ElfFile.open(LIBJVM));
        SymbolTable symbols = jvm.symbols();
        boolean found = false;
        for (int i = 0; i < symbols.size() && !found; i++) {
            found = symbols.name(i).equals("pthread_create@plt");
        }
        assertThat(found).as("libjvm calls pthread_create through its PLT").isTrue();
    }

    @Test
    void libjvmExportsHotSpotsSelfDescription() {
        ElfModuleImage jvm = new ElfModuleImage(LIBJVM.toString(), () -> ElfFile.open(LIBJVM));
        var tables = jvm.exports().withPrefix("gHotSpotVM");
        assertThat(tables).containsKeys("gHotSpotVMStructs", "gHotSpotVMTypes", "gHotSpotVMIntConstants",
                "gHotSpotVMLongConstants", "gHotSpotVMStructEntryArrayStride");
        assertThat(tables.keySet()).allMatch(name -> name.startsWith("gHotSpotVM"));
        assertThat(tables.get("gHotSpotVMStructs")).isPositive();
    }

    @Test
    void libstdcxxSymbolsDemangle() {
        ElfModuleImage module = new ElfModuleImage(LIBSTDCXX.toString(), () -> ElfFile.open(LIBSTDCXX));
        SymbolTable symbols = module.symbols();
        assertThat(symbols.size()).isGreaterThan(1000);
        boolean sawNamespace = false;
        for (int i = 0; i < symbols.size() && !sawNamespace; i++) {
            sawNamespace = symbols.name(i).startsWith("_ZNSt") && NativeSymbolizer.displayName(symbols, i).startsWith("std::");
        }
        assertThat(sawNamespace).isTrue();
    }

    @Test
    void functionEntryRuleIsTheReturnAddressOnTopOfTheStack() throws Exception {
        ElfModuleImage jvm = new ElfModuleImage(LIBJVM.toString(), () -> ElfFile.open(LIBJVM));
        SymbolTable symbols = jvm.symbols();
        int index = -1;
        for (int i = 0; i < symbols.size(); i++) {
            if (symbols.name(i).equals("JVM_MonitorWait")) {
                index = i;
            }
        }
        assertThat(index).isNotNegative();
        CfiRule entry = jvm.cfi().find(symbols.address(index));
        assertThat(entry).isNotNull();
        assertThat(entry.cfaRegister()).isEqualTo(7);
        assertThat(entry.cfaOffset()).isEqualTo(8);
        assertThat(entry.returnAddress()).isEqualTo(RegisterRule.savedAt(-8));
        assertThat(jvm.cfi().functionStart(symbols.address(index) + 3)).isEqualTo(symbols.address(index));
    }

    @Test
    void signalTrampolineIsASignalFrameWithExpressionRules() {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        ElfModuleImage module = new ElfModuleImage(libc.toString(), () -> ElfFile.open(libc));
        SymbolTable symbols = module.symbols();
        int index = -1;
        for (int i = 0; i < symbols.size(); i++) {
            if (symbols.name(i).equals("__restore_rt")) {
                index = i;
            }
        }
        assertThat(index).as("libc's debug symbols name the signal return trampoline").isNotNegative();
        CfiRule rule = module.cfi().find(symbols.address(index));
        assertThat(rule).isNotNull();
        assertThat(rule.signalFrame()).isTrue();
        assertThat(rule.cfaExpression()).isNotNull();
        assertThat(rule.returnAddress().kind()).isEqualTo(RegisterRule.Kind.SAVED_AT_EXPRESSION);
        assertThat(rule.fp().kind()).isEqualTo(RegisterRule.Kind.SAVED_AT_EXPRESSION);
    }

    @Test
    void ownMemoryReadsAndBadAddressesFailCleanly() throws Exception {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self()) {
            byte[] buffer = new byte[16];
            assertThat(memory.read(0x10, buffer, 0, 16)).isZero();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> memory.readLong(0x1000))
                    .isInstanceOf(MemoryReadException.class).hasMessage("cannot read 0x1000");
            com.sun.jna.Memory m = new com.sun.jna.Memory(8);
            m.setLong(0, 0x1122334455667788L);
            assertThat(memory.readLong(com.sun.jna.Pointer.nativeValue(m))).isEqualTo(0x1122334455667788L);
        }
    }
}
