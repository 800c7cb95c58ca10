package io.mixflame.symbolize;

import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.SymbolTable;

/** Names native code addresses of one process: module, function, displacement. */
public final class NativeSymbolizer {
    private final ModuleMap modules;

    /** Names code in the modules of {@code modules}. */
    public NativeSymbolizer(ModuleMap modules) {
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
        LoadedModule m = modules.moduleAt(lookup);
        if (m == null) {
            return new SymbolizedFrame(pc, null, null, 0, 0, 0, -1);
        }
        SymbolTable symbols = m.image().symbols();
        int index = symbols.indexOf(lookup - m.bias());
        if (index < 0) {
            // No symbol: named by the function the unwind data says holds the pc, so that a function's samples
            // add up under one name; the pc's own offset stays for outputs that keep addresses.
            long function = m.image().unwindData().functionStart(lookup - m.bias());
            return new SymbolizedFrame(pc, m.image().name(), null, 0, pc - m.bias(), pc - m.bias(), function);
        }
        long start = symbols.address(index) + m.bias();
        return new SymbolizedFrame(pc, m.image().name(), displayName(symbols, index), start, pc - start,
                symbols.address(index), symbols.address(index));
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
