package io.mixflame.stack;

import io.mixflame.profile.FrameType;

/**
 * One frame of a captured stack: what SymFromAddr and StackWalk64 give on Windows, plus the Java method where the
 * frame is Java code.
 *
 * @param kind          the kind of code (Java interpreted, compiled, inlined; native; kernel; JVM stub; marker)
 * @param address       the frame's pc (a return address for every frame but the innermost and those a signal
 *                      interrupted)
 * @param module        the native module's file name, or null
 * @param symbol        the native function (demangled), the JVM stub's name, the kernel function, or the marker; null
 *                      when unknown or not resolved
 * @param displacement  native frames with a symbol: address minus the function's start; without one: the address in
 *                      the module's own terms (an RVA in a PE image, an ELF virtual address), what a debugger or
 *                      symbol file is asked for; else 0
 * @param javaClass     Java frames: the class, binary name ({@code java.lang.String}); otherwise null
 * @param javaMethod    Java frames: the method; otherwise null
 * @param sourceFile    Java frames: the source file, or null
 * @param line          Java frames: the source line, 0 when unknown
 * @param sp            with extended info: the frame's stack pointer, else 0
 * @param fp            with extended info: its frame pointer when known, else 0
 * @param returnAddress with extended info: where this frame returns to (the caller frame's address), else 0
 */
public record StackFrame(FrameType kind, long address, String module, String symbol, long displacement,
                         String javaClass, String javaMethod, String sourceFile, int line, long sp, long fp,
                         long returnAddress) {

    /** One line, as {@code stacks} prints it. */
    public String describe() {
        if (javaClass != null) {
            String where = line > 0 && sourceFile != null ? sourceFile + ":" + line
                    : sourceFile != null ? sourceFile : "Unknown Source";
            return javaClass + "." + javaMethod + "(" + where + ")";
        }
        if (kind == FrameType.KERNEL) {
            return symbol + " [kernel]";
        }
        if (symbol == null) {
            return module != null ? module + "+0x" + Long.toHexString(displacement) : "0x" + Long.toHexString(address);
        }
        return (module != null ? module + "!" : "") + symbol + (displacement != 0 ? "+0x" + Long.toHexString(displacement) : "");
    }
}
