package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Some of the JVM's command-line flags, found in its flag table ({@code JVMFlag::flags}): their value addresses by
 * name. Only the flags asked for are kept, and names are compared as bytes where they lie: the table has over a
 * thousand flags, and making a string of each name cost a read and an allocation per flag at start-up.
 */
final class JvmFlags {
    private static final int MAX_FLAGS = 5_000;

    private final Map<String, Long> addresses = new HashMap<>();
    private final Map<String, Integer> types = new HashMap<>();
    private final VmReader reader;

    /**
     * @param wanted the names of the flags to find
     */
    JvmFlags(VmStructs vm, VmReader reader, String... wanted) throws UnsupportedVmException, MemoryReadException {
        this.reader = reader;
        VmStructs.Field flags = vm.requiredField("JVMFlag", "flags");
        if (!flags.isStatic()) {
            throw new UnsupportedVmException("the JVM does not describe JVMFlag::flags");
        }
        long table = reader.readLong(flags.address());
        long count = reader.readLong(vm.requiredField("JVMFlag", "numFlags").address());
        OptionalLong sizeOf = vm.typeSize("JVMFlag");
        if (sizeOf.isEmpty()) {
            throw new UnsupportedVmException("no sizeof(JVMFlag)");
        }
        long size = sizeOf.getAsLong();
        long addr = vm.requiredField("JVMFlag", "_addr").offset();
        long name = vm.requiredField("JVMFlag", "_name").offset();
        // JDK 17 and later describe a flag's type as an int (an enum whose first value is bool); older JVMs as text.
        Optional<VmStructs.Field> typeField = vm.field("JVMFlag", "_type");
        long type = typeField.isPresent() && typeField.get().typeString().equals("int") ? typeField.get().offset() : -1;
        byte[][] wantedBytes = new byte[wanted.length][];
        for (int w = 0; w < wanted.length; w++) {
            wantedBytes[w] = wanted[w].getBytes(StandardCharsets.ISO_8859_1);
        }
        for (long i = 0; i < Math.min(count, MAX_FLAGS) && addresses.size() < wanted.length; i++) {
            long flag = table + i * size;
            long namePtr = reader.readLong(flag + name);
            if (namePtr == 0) {
                continue;
            }
            int w = match(namePtr, wantedBytes);
            if (w >= 0) {
                addresses.put(wanted[w], reader.readLong(flag + addr));
                if (type >= 0) {
                    types.put(wanted[w], reader.s32(flag + type));
                }
            }
        }
    }

    /** Which wanted name, NUL-terminated, lies at {@code address}; -1 for none. */
    private int match(long address, byte[][] wanted) throws MemoryReadException {
        int first = reader.u8(address);
        for (int w = 0; w < wanted.length; w++) {
            if (wanted[w].length > 0 && wanted[w][0] == first && sameName(address, wanted[w])) {
                return w;
            }
        }
        return -1;
    }

    private boolean sameName(long address, byte[] name) throws MemoryReadException {
        for (int k = 1; k < name.length; k++) {
            if (reader.u8(address + k) != (name[k] & 0xff)) {
                return false;
            }
        }
        return reader.u8(address + name.length) == 0;
    }

    /** Where a flag's value lies; empty when the JVM has no such flag or it was not asked for. */
    OptionalLong address(String name) {
        Long address = addresses.get(name);
        return address == null ? OptionalLong.empty() : OptionalLong.of(address);
    }

    /** Whether the JVM says a flag is a boolean (its type's number is that of {@code bool}, the first). */
    boolean isBoolean(String name) {
        Integer t = types.get(name);
        return t != null && t == 0;
    }

    /** A boolean flag's value; empty when the JVM has no such flag or it was not asked for. */
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
