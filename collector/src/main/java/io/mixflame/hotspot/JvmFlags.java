package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/** The JVM's command-line flags read from its flag table ({@code JVMFlag::flags}): their value addresses by name. */
final class JvmFlags {
    private static final int MAX_FLAGS = 5_000;

    private final Map<String, Long> addresses = new HashMap<>();
    private final VmReader reader;

    JvmFlags(VmStructs vm, VmReader reader) throws UnsupportedVmException, MemoryReadException {
        this.reader = reader;
        long table = reader.u64(vm.field("JVMFlag", "flags").filter(VmStructs.Field::isStatic)
                .orElseThrow(() -> new UnsupportedVmException("the JVM does not describe JVMFlag::flags")).address());
        long count = reader.u64(vm.field("JVMFlag", "numFlags").orElseThrow(
                () -> new UnsupportedVmException("the JVM does not describe JVMFlag::numFlags")).address());
        long size = vm.typeSize("JVMFlag").orElseThrow(() -> new UnsupportedVmException("no sizeof(JVMFlag)"));
        long addr = vm.field("JVMFlag", "_addr").orElseThrow(() -> new UnsupportedVmException("no JVMFlag::_addr")).offset();
        long name = vm.field("JVMFlag", "_name").orElseThrow(() -> new UnsupportedVmException("no JVMFlag::_name")).offset();
        for (long i = 0; i < Math.min(count, MAX_FLAGS); i++) {
            long flag = table + i * size;
            long namePtr = reader.u64(flag + name);
            if (namePtr == 0) {
                continue;
            }
            addresses.put(reader.cString(namePtr), reader.u64(flag + addr));
        }
    }

    /** A boolean flag's value; empty when the JVM has no such flag. */
    OptionalLong bool(String name) {
        Long address = addresses.get(name);
        if (address == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(reader.u8(address));
        } catch (MemoryReadException e) {
            return OptionalLong.empty();
        }
    }
}
