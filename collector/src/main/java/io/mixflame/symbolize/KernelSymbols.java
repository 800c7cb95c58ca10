package io.mixflame.symbolize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The kernel's function symbols from {@code /proc/kallsyms}, for naming kernel frames. Addresses read as zero
 * unless the reader is privileged ({@code kptr_restrict}); no name is then found and kernel frames are named by
 * address.
 *
 * <p>The file has some 120 000 lines ({@code ffffffff81000000 T _stext}), the kernel's own in address order, then
 * those of modules ({@code … [module]}). Nothing is parsed up front: a name is found by binary search over the
 * text itself, reading a handful of lines, and only the few module lines are parsed into arrays. The profiler's
 * first kernel frame thus costs reading the file, not parsing it.
 */
public final class KernelSymbols {
    private static final int MAX_BYTES = 64 << 20;
    /** Lines to look back from a data symbol for the function before it. */
    private static final int MAX_LOOK_BACK = 64;
    private static final int NAME_AT = 19;

    private final byte[] text;
    /** The kernel's own lines, sorted by address, are {@code [0, sortedEnd)}; module lines follow. */
    private final int sortedEnd;
    private final long[] moduleAddresses;
    private final int[] moduleLines;

    private KernelSymbols(byte[] text, int sortedEnd, long[] moduleAddresses, int[] moduleLines) {
        this.text = text;
        this.sortedEnd = sortedEnd;
        this.moduleAddresses = moduleAddresses;
        this.moduleLines = moduleLines;
    }

    /** Reads {@code /proc/kallsyms}; an unreadable file gives an empty table. */
    public static KernelSymbols load() {
        try (InputStream in = Files.newInputStream(Path.of("/proc/kallsyms"))) {
            return parse(in.readNBytes(MAX_BYTES));
        } catch (IOException | RuntimeException e) {
            return parse(new byte[0]);
        }
    }

    /** Indexes the text of {@code /proc/kallsyms}. */
    static KernelSymbols parse(byte[] text) {
        int sortedEnd = firstModuleLine(text);
        long[] addresses = new long[16];
        int[] lines = new int[16];
        int count = 0;
        for (int line = sortedEnd; line < text.length; line = nextLine(text, line)) {
            if (isFunction(text, line)) {
                long address = address(text, line);
                if (address != 0 && address != -1) {
                    if (count == addresses.length) {
                        addresses = Arrays.copyOf(addresses, count * 2);
                        lines = Arrays.copyOf(lines, count * 2);
                    }
                    addresses[count] = address;
                    lines[count] = line;
                    count++;
                }
            }
        }
        sortByAddress(addresses, lines, count);
        return new KernelSymbols(text, sortedEnd, Arrays.copyOf(addresses, count), Arrays.copyOf(lines, count));
    }

    /** The function holding a kernel address, or its hex form. */
    public String name(long address) {
        int kernel = searchSorted(address);
        int module = searchModules(address);
        int line;
        if (kernel < 0) {
            line = module;
        } else if (module < 0) {
            line = kernel;
        } else {
            line = Long.compareUnsigned(address(text, kernel), address(text, module)) >= 0 ? kernel : module;
        }
        return line < 0 ? "[kernel 0x" + Long.toHexString(address) + "]" : nameAt(line);
    }

    /** Number of module functions parsed (the kernel's own are searched in place). */
    int moduleFunctions() {
        return moduleAddresses.length;
    }

    /** The last function line of the kernel's own at or below {@code address}, or -1. */
    private int searchSorted(long address) {
        int lo = 0;
        int hi = sortedEnd;
        int best = -1;
        while (lo < hi) {
            int line = lineStart(text, (lo + hi) >>> 1);
            if (line < lo) {
                line = lo;
            }
            long at = address(text, line);
            if (at != -1 && at != 0 && Long.compareUnsigned(at, address) <= 0) {
                best = line;
                lo = nextLine(text, line);
            } else {
                hi = line;
            }
        }
        // The closest symbol may be data; the function is the last text symbol before it.
        for (int back = 0; best >= 0 && back < MAX_LOOK_BACK; back++) {
            if (isFunction(text, best) && address(text, best) != 0) {
                return best;
            }
            best = best == 0 ? -1 : lineStart(text, best - 1);
        }
        return -1;
    }

    private int searchModules(long address) {
        int lo = 0;
        int hi = moduleAddresses.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(moduleAddresses[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? -1 : moduleLines[found];
    }

    private String nameAt(int line) {
        int end = line + NAME_AT;
        while (end < text.length && text[end] != '\n' && text[end] != '\t') {
            end++;
        }
        return new String(text, line + NAME_AT, end - (line + NAME_AT), StandardCharsets.ISO_8859_1);
    }

    /** The start of the first line with a module tag (a tab), found by binary search: the tagged lines come last. */
    private static int firstModuleLine(byte[] text) {
        int lo = 0;
        int hi = text.length;
        while (lo < hi) {
            int line = lineStart(text, (lo + hi) >>> 1);
            if (line < lo) {
                line = lo;
            }
            if (hasTab(text, line)) {
                hi = line;
            } else {
                lo = nextLine(text, line);
            }
        }
        return Math.min(lo, text.length);
    }

    private static boolean hasTab(byte[] text, int line) {
        for (int i = line; i < text.length && text[i] != '\n'; i++) {
            if (text[i] == '\t') {
                return true;
            }
        }
        return false;
    }

    private static boolean isFunction(byte[] text, int line) {
        return line + NAME_AT < text.length && text[line + 16] == ' ' && text[line + 18] == ' '
                && (text[line + 17] == 't' || text[line + 17] == 'T');
    }

    private static int lineStart(byte[] text, int position) {
        int i = Math.min(position, text.length);
        while (i > 0 && text[i - 1] != '\n') {
            i--;
        }
        return i;
    }

    private static int nextLine(byte[] text, int line) {
        int i = line;
        while (i < text.length && text[i] != '\n') {
            i++;
        }
        return i + 1;
    }

    /** Sixteen hex digits at the start of a line, or -1 when they are not. */
    private static long address(byte[] text, int line) {
        if (line + 16 > text.length) {
            return -1;
        }
        long value = 0;
        for (int i = line; i < line + 16; i++) {
            int c = text[i];
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (digit < 0) {
                return -1;
            }
            value = (value << 4) | digit;
        }
        return value;
    }

    /** Module lines are few: a plain insertion sort keeps the code small. */
    private static void sortByAddress(long[] addresses, int[] lines, int count) {
        for (int i = 1; i < count; i++) {
            long a = addresses[i];
            int l = lines[i];
            int j = i - 1;
            while (j >= 0 && Long.compareUnsigned(addresses[j], a) > 0) {
                addresses[j + 1] = addresses[j];
                lines[j + 1] = lines[j];
                j--;
            }
            addresses[j + 1] = a;
            lines[j + 1] = l;
        }
    }
}
