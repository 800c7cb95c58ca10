package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The offsets, sizes and constants the walker needs, looked up by name in {@link VmStructs} once per JVM. Where
 * HotSpot renamed or moved something between releases, each name it has had is tried; where a field changed width,
 * the width comes from its declared type. A JVM that lacks a needed name fails with that name in the message.
 */
final class HotSpotLayout {
    final int majorVersion;
    /** UNSIGNED5 streams exclude the byte 0 from JDK 20 on (JDK-8292758); no exported constant says so. */
    final boolean unsigned5ExcludesZero;

    // code cache
    final long heapsVariable;
    final long arrayLength;
    final long arrayData;
    final long heapMemory;
    final long heapSegmap;
    final long heapLog2SegmentSize;
    final long spaceLow;
    final long spaceHigh;
    final long heapBlockSize;
    final long blockUsed;
    /** HeapBlock::Header::_length (segments), for the census of the code heaps; -1 where not described. */
    final long blockLength;
    /** Bytes of HeapBlock::Header::_length: a size_t, and a 32-bit count from JDK 21 or so. */
    final int blockLengthWidth;
    final long lowBoundVariable;
    final long highBoundVariable;

    // CodeBlob
    final long blobName;
    final long blobSize;
    final long blobFrameSize;
    final long blobFrameComplete;
    final int blobFrameCompleteWidth;
    /** JDK 17 stores code begin and end as pointers; later releases as offsets from the blob's start. */
    final boolean codeOffsetsRelative;
    final long blobCodeBegin;
    final long blobCodeEnd;
    final long blobHeaderBytes;

    // nmethod
    final long nmMethod;
    /** nmethod::_compile_id, which tells a recompilation from the code it replaced; -1 where not described. */
    final long nmCompileId;
    final long nmCompLevel;
    final int nmCompLevelWidth;
    final long nmOrigPcOffset;
    /** -1 when not described: the inline cache check is then not told from the prologue. */
    final long nmVerifiedEntry;
    final int nmVerifiedEntryWidth;
    /** JDK 17 stores the verified entry as a pointer; later releases as an offset from the code's start. */
    final boolean verifiedEntryRelative;
    final boolean deoptRelative;
    final long nmDeoptHandler;
    final long nmDeoptMhHandler;
    /** JDK 25 keeps debug information in a separate "immutable data" block. */
    final boolean immutableData;
    final long nmImmutableData;
    final long nmScopesPcsOffset;
    final long nmScopesPcsEndOffset;
    final long nmScopesDataBegin;
    final long nmMetadataOffset;
    final long blobMutableData;
    final long blobRelocationSize;
    final long pcDescSize;
    final long pcDescPcOffset;
    final long pcDescScopeOffset;

    // interpreter and stubs
    final long interpreterCodeVariable;
    final long stubQueueBuffer;
    final long stubQueueLimit;
    final long callStubReturnVariable;
    final long entryFrameCallWrapperWords;
    final long callWrapperAnchor;

    // methods
    final long methodConstMethod;
    final long constMethodConstants;
    final long constMethodFlags;
    final int constMethodFlagsWidth;
    final long constMethodCodeSize;
    final long constMethodNameIndex;
    final long constMethodSignatureIndex;
    final long constMethodSize;
    final long lineNumberTableFlag;
    final long poolHolder;
    final long poolLength;
    final long poolSize;
    /** -1 when the JVM does not describe it: frames then have no source file name. */
    final long poolSourceFileIndex;
    final long symbolLength;
    final long symbolBody;
    /** -1 when not described: a symbol's reference count (low 16 bits) is then not checked. */
    final long symbolRefcount;
    final long klassName;
    /** -1 when not described: a method is then not checked against its class's method array. */
    final long instanceKlassMethods;
    final long methodArrayLength;
    final long methodArrayData;

    // threads
    final long threadListVariable;
    final long threadListLength;
    final long threadListThreads;
    final long threadOsThread;
    final long osThreadId;
    final int osThreadIdWidth;
    final long threadState;
    final long threadAnchor;
    final long anchorSp;
    final long anchorPc;
    final long anchorFp;
    final long threadStackBase;
    final long threadStackSize;

    HotSpotLayout(VmStructs vm, VmReader reader) throws UnsupportedVmException {
        Lookup l = new Lookup(vm);
        long versionVariable = l.staticAddress("Abstract_VM_Version", "_vm_major_version");
        try {
            majorVersion = reader.s32(versionVariable);
        } catch (MemoryReadException e) {
            throw new UnsupportedVmException("the JVM's version cannot be read");
        }
        unsigned5ExcludesZero = majorVersion >= 20;

        heapsVariable = l.staticAddress("CodeCache", "_heaps");
        arrayLength = l.offset("GrowableArrayBase", "_len");
        arrayData = l.offset("GrowableArray<int>", "_data");
        heapMemory = l.offset("CodeHeap", "_memory");
        heapSegmap = l.offset("CodeHeap", "_segmap");
        heapLog2SegmentSize = l.offset("CodeHeap", "_log2_segment_size");
        spaceLow = l.offset("VirtualSpace", "_low");
        spaceHigh = l.offset("VirtualSpace", "_high");
        heapBlockSize = l.size("HeapBlock");
        blockUsed = l.offset("HeapBlock::Header", "_used");
        blockLength = vm.offsetOr("HeapBlock::Header", "_length", -1);
        blockLengthWidth = blockLength < 0 ? 8 : l.width("HeapBlock::Header", "_length");
        lowBoundVariable = l.staticAddress("CodeCache", "_low_bound");
        highBoundVariable = l.staticAddress("CodeCache", "_high_bound");

        blobName = l.offset("CodeBlob", "_name");
        blobSize = l.offset("CodeBlob", "_size");
        blobFrameSize = l.offset("CodeBlob", "_frame_size");
        blobFrameComplete = l.offset("CodeBlob", "_frame_complete_offset");
        blobFrameCompleteWidth = l.width("CodeBlob", "_frame_complete_offset");
        codeOffsetsRelative = vm.field("CodeBlob", "_code_offset").isPresent();
        blobCodeBegin = codeOffsetsRelative ? l.offset("CodeBlob", "_code_offset") : l.offset("CodeBlob", "_code_begin");
        blobCodeEnd = codeOffsetsRelative ? l.offset("CodeBlob", "_data_offset") : l.offset("CodeBlob", "_code_end");

        nmMethod = l.offset(new String[] {"nmethod", "CompiledMethod"}, "_method");
        nmCompileId = vm.offsetOr("nmethod", "_compile_id", vm.offsetOr("CompiledMethod", "_compile_id", -1));
        nmCompLevel = l.offset("nmethod", "_comp_level");
        nmCompLevelWidth = l.width("nmethod", "_comp_level");
        nmOrigPcOffset = l.offset("nmethod", "_orig_pc_offset");
        verifiedEntryRelative = vm.field("nmethod", "_verified_entry_offset").isPresent();
        String verifiedEntryName = verifiedEntryRelative ? "_verified_entry_offset" : "_verified_entry_point";
        boolean hasVerifiedEntry = vm.field("nmethod", verifiedEntryName).isPresent();
        nmVerifiedEntry = hasVerifiedEntry ? l.offset("nmethod", verifiedEntryName) : -1;
        nmVerifiedEntryWidth = hasVerifiedEntry ? l.width("nmethod", verifiedEntryName) : 0;
        deoptRelative = vm.field("nmethod", "_deopt_handler_offset").isPresent();
        nmDeoptHandler = deoptRelative ? l.offset("nmethod", "_deopt_handler_offset")
                : l.offset("CompiledMethod", "_deopt_handler_begin");
        nmDeoptMhHandler = deoptRelative ? l.offset("nmethod", "_deopt_mh_handler_offset")
                : l.offset("CompiledMethod", "_deopt_mh_handler_begin");
        immutableData = vm.field("nmethod", "_immutable_data").isPresent();
        nmScopesPcsOffset = l.offset("nmethod", "_scopes_pcs_offset");
        if (immutableData) {
            nmImmutableData = l.offset("nmethod", "_immutable_data");
            nmScopesPcsEndOffset = l.offset("nmethod", "_scopes_data_offset");
            nmScopesDataBegin = nmScopesPcsEndOffset;
            nmMetadataOffset = -1;
            blobMutableData = l.offset("CodeBlob", "_mutable_data");
            blobRelocationSize = l.offset("CodeBlob", "_relocation_size");
        } else {
            nmImmutableData = -1;
            nmScopesPcsEndOffset = l.offset("nmethod", "_dependencies_offset");
            nmScopesDataBegin = l.offset("CompiledMethod", "_scopes_data_begin");
            nmMetadataOffset = l.offset("nmethod", "_metadata_offset");
            blobMutableData = -1;
            blobRelocationSize = -1;
        }
        pcDescSize = l.size("PcDesc");
        pcDescPcOffset = l.offset("PcDesc", "_pc_offset");
        pcDescScopeOffset = l.offset("PcDesc", "_scope_decode_offset");
        blobHeaderBytes = Math.max(l.size("nmethod"), l.size("CodeBlob"));

        interpreterCodeVariable = l.staticAddress("AbstractInterpreter", "_code");
        stubQueueBuffer = l.offset("StubQueue", "_stub_buffer");
        stubQueueLimit = l.offset("StubQueue", "_buffer_limit");
        callStubReturnVariable = l.staticAddress("StubRoutines", "_call_stub_return_address");
        entryFrameCallWrapperWords = l.constant("frame::entry_frame_call_wrapper_offset");
        callWrapperAnchor = l.offset("JavaCallWrapper", "_anchor");

        methodConstMethod = l.offset("Method", "_constMethod");
        constMethodConstants = l.offset("ConstMethod", "_constants");
        boolean flagsWrapped = vm.field("ConstMethod", "_flags._flags").isPresent();
        constMethodFlags = l.offset("ConstMethod", flagsWrapped ? "_flags._flags" : "_flags");
        constMethodFlagsWidth = l.width("ConstMethod", flagsWrapped ? "_flags._flags" : "_flags");
        constMethodCodeSize = l.offset("ConstMethod", "_code_size");
        constMethodNameIndex = l.offset("ConstMethod", "_name_index");
        constMethodSignatureIndex = l.offset("ConstMethod", "_signature_index");
        constMethodSize = l.size("ConstMethod");
        lineNumberTableFlag = l.constant("ConstMethodFlags::_misc_has_linenumber_table", "ConstMethod::_has_linenumber_table");
        poolHolder = l.offset("ConstantPool", "_pool_holder");
        poolLength = l.offset("ConstantPool", "_length");
        poolSize = l.size("ConstantPool");
        poolSourceFileIndex = vm.offsetOr("ConstantPool", "_source_file_name_index", -1);
        symbolLength = l.offset("Symbol", "_length");
        symbolBody = l.offset("Symbol", "_body[0]", "_body");
        klassName = l.offset("Klass", "_name");
        symbolRefcount = vm.offsetOr("Symbol", "_hash_and_refcount", -1);
        long methods = vm.offsetOr("InstanceKlass", "_methods", -1);
        long methodData = vm.offsetOr("Array<Method*>", "_data", -1);
        instanceKlassMethods = methodData < 0 ? -1 : methods;
        methodArrayData = methodData;
        // Every Array<T> starts with the same int length; not every instantiation is described.
        methodArrayLength = vm.offsetOr("Array<Method*>", "_length",
                vm.offsetOr("Array<Klass*>", "_length", vm.offsetOr("Array<int>", "_length", 0)));

        threadListVariable = l.staticAddress("ThreadsSMRSupport", "_java_thread_list");
        threadListLength = l.offset("ThreadsList", "_length");
        threadListThreads = l.offset("ThreadsList", "_threads");
        threadOsThread = l.offset(new String[] {"JavaThread", "Thread"}, "_osthread");
        osThreadId = l.offset("OSThread", "_thread_id");
        osThreadIdWidth = l.width("OSThread", "_thread_id");
        threadState = l.offset("JavaThread", "_thread_state");
        threadAnchor = l.offset("JavaThread", "_anchor");
        anchorSp = l.offset("JavaFrameAnchor", "_last_Java_sp");
        anchorPc = l.offset("JavaFrameAnchor", "_last_Java_pc");
        anchorFp = l.offset(new String[] {"JavaFrameAnchor"}, "_last_Java_fp");
        threadStackBase = l.offset(new String[] {"JavaThread", "Thread"}, "_stack_base");
        threadStackSize = l.offset(new String[] {"JavaThread", "Thread"}, "_stack_size");
    }

    /** Name lookups that fail with the missing name. */
    private static final class Lookup {
        private final VmStructs vm;

        Lookup(VmStructs vm) {
            this.vm = vm;
        }

        long offset(String type, String... names) throws UnsupportedVmException {
            return offset(new String[] {type}, names);
        }

        long offset(String[] types, String... names) throws UnsupportedVmException {
            VmStructs.Field f = find(types, names);
            if (f.isStatic()) {
                throw new UnsupportedVmException(types[0] + "::" + names[0] + " is static in this JVM");
            }
            return f.offset();
        }

        long staticAddress(String type, String name) throws UnsupportedVmException {
            VmStructs.Field f = find(new String[] {type}, new String[] {name});
            if (!f.isStatic()) {
                throw new UnsupportedVmException(type + "::" + name + " is not static in this JVM");
            }
            return f.address();
        }

        int width(String type, String name) throws UnsupportedVmException {
            String ts = find(new String[] {type}, new String[] {name}).typeString().replace("volatile ", "").trim();
            if (ts.endsWith("*")) {
                return 8;
            }
            OptionalLong size = vm.typeSize(ts);
            if (size.isPresent() && size.getAsLong() > 0 && size.getAsLong() <= 8) {
                return (int) size.getAsLong();
            }
            return switch (ts) {
                case "int", "jint", "uint", "u4", "int32_t", "uint32_t", "pid_t", "OSThread::thread_id_t" -> 4;
                case "u2", "short", "int16_t", "uint16_t", "jushort" -> 2;
                case "u1", "bool", "char", "signed char", "int8_t", "uint8_t", "jbyte" -> 1;
                default -> 8;
            };
        }

        long size(String type) throws UnsupportedVmException {
            OptionalLong s = vm.typeSize(type);
            if (s.isEmpty()) {
                throw new UnsupportedVmException("the JVM does not describe the type " + type);
            }
            return s.getAsLong();
        }

        long constant(String... names) throws UnsupportedVmException {
            for (String n : names) {
                OptionalLong c = vm.constant(n);
                if (c.isPresent()) {
                    return c.getAsLong();
                }
            }
            throw new UnsupportedVmException("the JVM does not export the constant " + names[0]);
        }

        private VmStructs.Field find(String[] types, String[] names) throws UnsupportedVmException {
            for (String t : types) {
                for (String n : names) {
                    Optional<VmStructs.Field> f = vm.field(t, n);
                    if (f.isPresent()) {
                        return f.get();
                    }
                }
            }
            throw new UnsupportedVmException("the JVM does not describe the field " + types[0] + "::" + names[0]);
        }
    }
}
