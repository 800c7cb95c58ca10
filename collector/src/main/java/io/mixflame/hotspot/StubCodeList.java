package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Reads HotSpot's list of the stubs it generated ({@code StubCodeDesc::_list}, a static of libjvm found through its
 * symbol table): one descriptor per stub with its group, its name and the range of its code. The descriptor's
 * layout is not described by the JVM's tables, so it is found from the descriptors themselves: a link to the next
 * one, then two C strings (group, name) and two addresses of the code cache ({@code begin <= end}) in consecutive
 * words; a layout is taken only when the first descriptors all agree with it.
 */
final class StubCodeList {
    private static final int WORD = 8;
    private static final int PROBE_WORDS = 8;
    private static final int PROBED_DESCRIPTORS = 8;
    private static final int MAX_DESCRIPTORS = 20_000;
    private static final int MAX_NAME = 200;
    private static final long MAX_STUB_BYTES = 1 << 24;

    /** Byte offsets of a descriptor's fields. */
    record Layout(int next, int group, int name, int begin, int end) {
    }

    private final VmReader reader;
    private final LongPredicate inCodeCache;
    private final Map<Long, String> strings = new HashMap<>();

    StubCodeList(VmReader reader, LongPredicate inCodeCache) {
        this.reader = reader;
        this.inCodeCache = inCodeCache;
    }

    /** The stubs of the list that starts at {@code head}; empty when no layout fits its descriptors. */
    StubRanges read(long head) {
        Layout layout = layoutOf(head);
        StubRanges.Builder ranges = new StubRanges.Builder();
        if (layout == null) {
            return ranges.build();
        }
        long descriptor = head;
        for (int i = 0; i < MAX_DESCRIPTORS && descriptor != 0; i++) {
            try {
                long begin = reader.readLong(descriptor + layout.begin());
                long end = reader.readLong(descriptor + layout.end());
                if (validRange(begin, end)) {
                    ranges.add(begin, end, string(reader.readLong(descriptor + layout.name())));
                }
                descriptor = reader.readLong(descriptor + layout.next());
            } catch (MemoryReadException e) {
                break;
            }
        }
        return ranges.build();
    }

    /**
     * The layout the first descriptors from {@code head} agree on, or null. Begin and end are adjacent words with
     * the name and then the group before them; the link is one of the words before those.
     */
    Layout layoutOf(long head) {
        for (int begin = 3; begin <= PROBE_WORDS - 2; begin++) {
            for (int next = 0; next <= begin - 3; next++) {
                Layout candidate = new Layout(next * WORD, (begin - 2) * WORD, (begin - 1) * WORD, begin * WORD,
                        (begin + 1) * WORD);
                if (fits(head, candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    private boolean fits(long head, Layout layout) {
        long descriptor = head;
        for (int i = 0; i < PROBED_DESCRIPTORS && descriptor != 0; i++) {
            try {
                if (!validRange(reader.readLong(descriptor + layout.begin()), reader.readLong(descriptor + layout.end()))
                        || !isName(reader.readLong(descriptor + layout.group()))
                        || !isName(reader.readLong(descriptor + layout.name()))) {
                    return false;
                }
                descriptor = reader.readLong(descriptor + layout.next());
            } catch (MemoryReadException e) {
                return false;
            }
        }
        return head != 0;
    }

    private boolean validRange(long begin, long end) {
        return inCodeCache.test(begin) && inCodeCache.test(end) && begin <= end && end - begin < MAX_STUB_BYTES;
    }

    private boolean isName(long pointer) {
        if (pointer == 0 || inCodeCache.test(pointer)) {
            return false;
        }
        try {
            String s = string(pointer);
            if (s.isEmpty() || s.length() > MAX_NAME) {
                return false;
            }
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c > 0x7e) {
                    return false;
                }
            }
            return true;
        } catch (MemoryReadException e) {
            return false;
        }
    }

    /** A descriptor's string; the same group string is shared by hundreds of descriptors. */
    private String string(long pointer) throws MemoryReadException {
        String s = strings.get(pointer);
        if (s == null) {
            s = reader.cString(pointer);
            strings.put(pointer, s);
        }
        return s;
    }
}
