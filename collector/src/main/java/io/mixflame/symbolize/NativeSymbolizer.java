package io.mixflame.symbolize;

import io.mixflame.image.ProcessModules;
import io.mixflame.image.SymbolTable;
import io.mixflame.image.LoadedModule;
import java.util.Optional;

/** Names native code addresses of one process: module, function, displacement. */
public final class NativeSymbolizer {
    private final ProcessModules modules;

    public NativeSymbolizer(ProcessModules modules) {
        this.modules = modules;
    }

    /**
     * Names the code at {@code pc}.
     *
     * @param callSite true when pc is a return address: the call before it (pc - 1) is what the frame runs, which
     *                 matters at the end of a function whose last instruction is a call
     */
    public SymbolizedFrame symbolize(long pc, boolean callSite) {
        long lookup = callSite ? pc - 1 : pc;
        Optional<LoadedModule> loaded = modules.find(lookup);
        if (loaded.isEmpty()) {
            return new SymbolizedFrame(pc, null, null, 0, 0);
        }
        LoadedModule m = loaded.get();
        SymbolTable symbols = m.module().symbols();
        int index = symbols.indexOf(lookup - m.bias());
        if (index < 0) {
            return new SymbolizedFrame(pc, m.module().name(), null, 0, pc - m.bias());
        }
        long start = symbols.address(index) + m.bias();
        return new SymbolizedFrame(pc, m.module().name(), displayName(symbols, index), start, pc - start);
    }

    /** The symbol's name demangled, made once per symbol and kept with the table. */
    public static String displayName(SymbolTable symbols, int index) {
        String name = symbols.displayName(index);
        if (name == null) {
            name = CxxDemangler.demangle(symbols.name(index));
            symbols.setDisplayName(index, name);
        }
        return name;
    }
}
