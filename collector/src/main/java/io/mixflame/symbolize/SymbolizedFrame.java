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
 */
public record SymbolizedFrame(long pc, String module, String symbol, long symbolStart, long displacement,
                              long moduleOffset) {

    /** {@code symbol}, else {@code module+0xoffset}, else {@code [unknown]}-style hex. */
    public String displayName() {
        if (symbol != null) {
            return symbol;
        }
        if (module != null) {
            return "[" + module + "+0x" + Long.toHexString(displacement) + "]";
        }
        return "[0x" + Long.toHexString(pc) + "]";
    }
}
