package io.mixflame.stack;

/**
 * What an address in a process is.
 *
 * @param address      the address
 * @param module       the native module holding it, or null (JIT code, unmapped)
 * @param symbol       the native function or JVM stub, or null
 * @param symbolStart  the function's address, or 0
 * @param displacement address minus symbolStart (or the offset in the module without a symbol)
 * @param javaClass    when it is Java code: the (innermost, if inlined) method's class, binary name; else null
 * @param javaMethod   the method's name, or null
 * @param line         the source line at that address, or 0
 */
public record ResolvedAddress(long address, String module, String symbol, long symbolStart, long displacement,
                              String javaClass, String javaMethod, int line) {
}
