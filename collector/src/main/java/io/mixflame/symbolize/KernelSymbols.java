package io.mixflame.symbolize;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The kernel's function symbols from {@code /proc/kallsyms}, for naming kernel frames. Addresses read as zero
 * unless the reader is privileged ({@code kptr_restrict}); the table is then empty and kernel frames are named by
 * address.
 */
public final class KernelSymbols {
    private static final int MAX_SYMBOLS = 1 << 20;

    private final long[] addresses;
    private final String[] names;

    private KernelSymbols(long[] addresses, String[] names) {
        this.addresses = addresses;
        this.names = names;
    }

    /** Reads {@code /proc/kallsyms}; an unreadable file gives an empty table. */
    public static KernelSymbols load() {
        long[] a = new long[1 << 16];
        String[] n = new String[1 << 16];
        int count = 0;
        try (BufferedReader in = Files.newBufferedReader(Path.of("/proc/kallsyms"), StandardCharsets.US_ASCII)) {
            for (String line; (line = in.readLine()) != null && count < MAX_SYMBOLS; ) {
                // ffffffff81000000 T _stext [module]
                int s1 = line.indexOf(' ');
                if (s1 != 16 || line.length() < 20) {
                    continue;
                }
                char type = line.charAt(17);
                if (type != 't' && type != 'T') {
                    continue;
                }
                long address = Long.parseUnsignedLong(line, 0, 16, 16);
                if (address == 0) {
                    continue;
                }
                int end = line.indexOf('\t', 19);
                String name = end < 0 ? line.substring(19) : line.substring(19, end);
                if (count == a.length) {
                    a = Arrays.copyOf(a, count * 2);
                    n = Arrays.copyOf(n, count * 2);
                }
                a[count] = address;
                n[count] = name;
                count++;
            }
        } catch (IOException | RuntimeException e) {
            return new KernelSymbols(new long[0], new String[0]);
        }
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        long[] sortedA = a;
        Arrays.sort(order, (x, y) -> Long.compareUnsigned(sortedA[x], sortedA[y]));
        long[] addresses = new long[count];
        String[] names = new String[count];
        for (int i = 0; i < count; i++) {
            addresses[i] = a[order[i]];
            names[i] = n[order[i]];
        }
        return new KernelSymbols(addresses, names);
    }

    /** The function holding a kernel address, or its hex form. */
    public String name(long address) {
        int lo = 0;
        int hi = addresses.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(addresses[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? "[kernel 0x" + Long.toHexString(address) + "]" : names[found];
    }

    /** Number of symbols. */
    public int size() {
        return names.length;
    }
}
