package io.mixflame.hotspot;

/** What a code blob holds, as far as walking and naming frames care. */
public enum BlobKind {
    /** Compiled Java code (C1 or C2), with debug information for inlined frames. */
    NMETHOD,
    /** The compiled wrapper that calls a Java {@code native} method's C code. */
    NATIVE_WRAPPER,
    /** The template interpreter. */
    INTERPRETER,
    /** Any other generated code: call stub, adapters, runtime stubs, vtable stubs. */
    STUB
}
