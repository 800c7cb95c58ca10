package io.mixflame.hotspot;

import io.mixflame.testsupport.FakeProcessMemory;

/**
 * The entries {@link HotSpotLayout} requires beyond the code cache (interpreter, methods, threads), with made-up
 * offsets: the layout is built all at once and fails on any missing name, but a code cache test never reads them.
 * Only the JVM's version is a real value in memory, since the layout reads it.
 */
final class OtherLayoutEntries {
    /** Static fields of the JVM that the layout does not read: any address will do. */
    private static final long UNREAD_STATIC = 0x1000;

    private OtherLayoutEntries() {
    }

    /** Adds the entries, and the version variable at {@code versionVariable} holding {@code majorVersion}. */
    static void addTo(SyntheticVmStructs vm, FakeProcessMemory memory, long versionVariable, int majorVersion) {
        memory.writeInt(versionVariable, majorVersion);
        vm.staticField("Abstract_VM_Version", "_vm_major_version", "int", versionVariable)
                .type("PcDesc", 16)
                .field("PcDesc", "_pc_offset", "int", 0)
                .field("PcDesc", "_scope_decode_offset", "int", 4)
                .staticField("AbstractInterpreter", "_code", "StubQueue*", UNREAD_STATIC)
                .field("StubQueue", "_stub_buffer", "address", 8)
                .field("StubQueue", "_buffer_limit", "int", 16)
                .staticField("StubRoutines", "_call_stub_return_address", "address", UNREAD_STATIC)
                .intConstant("frame::entry_frame_call_wrapper_offset", -6)
                .field("JavaCallWrapper", "_anchor", "JavaFrameAnchor", 0)
                .field("Method", "_constMethod", "ConstMethod*", 8)
                .field("ConstMethod", "_constants", "ConstantPool*", 8)
                .field("ConstMethod", "_flags", "int", 16)
                .field("ConstMethod", "_code_size", "u2", 20)
                .field("ConstMethod", "_name_index", "u2", 22)
                .field("ConstMethod", "_signature_index", "u2", 24)
                .type("ConstMethod", 48)
                .intConstant("ConstMethod::_has_linenumber_table", 1)
                .field("ConstantPool", "_pool_holder", "InstanceKlass*", 24)
                .field("ConstantPool", "_length", "int", 32)
                .type("ConstantPool", 64)
                .field("Symbol", "_length", "u2", 4)
                .field("Symbol", "_body[0]", "u1", 6)
                .field("Klass", "_name", "Symbol*", 16)
                .staticField("ThreadsSMRSupport", "_java_thread_list", "ThreadsList*", UNREAD_STATIC)
                .field("ThreadsList", "_length", "uint", 8)
                .field("ThreadsList", "_threads", "JavaThread**", 16)
                .field("JavaThread", "_osthread", "OSThread*", 8)
                .field("OSThread", "_thread_id", "pid_t", 8)
                .field("JavaThread", "_thread_state", "JavaThreadState", 16)
                .field("JavaThread", "_anchor", "JavaFrameAnchor", 24)
                .field("JavaFrameAnchor", "_last_Java_sp", "intptr_t*", 0)
                .field("JavaFrameAnchor", "_last_Java_pc", "address", 8)
                .field("JavaFrameAnchor", "_last_Java_fp", "intptr_t*", 16)
                .field("JavaThread", "_stack_base", "address", 48)
                .field("JavaThread", "_stack_size", "size_t", 56);
    }
}
