package io.mixflame.symbolize;

/**
 * A native frame named: what SymFromAddr gives on Windows.
 *
 * @param pc           the frame's pc
 * @param module       the module's file name, or null when no module holds the pc
 * @param symbol       the function's demangled name, or null when no symbol holds the pc
 * @param symbolStart  the function's address in the process (0 without a symbol)
 * @param displacement {@code pc - symbolStart}, or the offset in the module without a symbol
 * @param moduleOffset the function's offset in its module's image (the pc's without a symbol), 0 without a module
 * @param functionOffset without a symbol: the offset in the module of the function that the module's unwind data
 *                     says holds the pc, or -1 where none does; with a symbol, {@code moduleOffset}
 */
public record SymbolizedFrame(long pc, String module, String symbol, long symbolStart, long displacement,
                              long moduleOffset, long functionOffset) {

    /**
     * {@code symbol}; else {@code [module+0xSTART]}, the start of the function that holds the pc, so that every
     * address of one function without a symbol has one name; else {@code [module]} where no unwind data describes a
     * function there; else the pc in hex.
     */
    public String displayName() {
        if (symbol != null) {
            return symbol;
        }
        if (module != null) {
            return functionOffset < 0 ? "[" + module + "]" : "[" + module + "+0x" + Long.toHexString(functionOffset) + "]";
        }
        return "[0x" + Long.toHexString(pc) + "]";
    }
}
