package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's Java threads, from its thread list ({@code ThreadsSMRSupport::_java_thread_list}): OS thread id, state,
 * last Java frame, stack bounds and full Java name. The list is replaced, not changed, when threads start or end,
 * and an outside reader cannot hold it alive; it is read twice and used when both reads agree.
 */
final class JavaThreadList {
    private static final int MAX_THREADS = 100_000;

    private final HotSpotLayout layout;
    private final VmReader reader;
    private final JavaHeapReader heap;
    private final long threadObj;
    private final long oopHandleObj;

    JavaThreadList(VmStructs vm, HotSpotLayout layout, VmReader reader, JavaHeapReader heap) throws UnsupportedVmException {
        this.layout = layout;
        this.reader = reader;
        this.heap = heap;
        this.threadObj = vm.requiredField("JavaThread", "_threadObj").offset();
        this.oopHandleObj = vm.requiredField("OopHandle", "_obj").offset();
    }

    private JavaThreadList(JavaThreadList from, VmReader reader) {
        this.layout = from.layout;
        this.reader = reader;
        this.heap = from.heap.withReader(reader);
        this.threadObj = from.threadObj;
        this.oopHandleObj = from.oopHandleObj;
    }

    /** The reader this list reads through. */
    VmReader reader() {
        return reader;
    }

    /** The same list read through another reader, for use on another thread. */
    JavaThreadList withReader(VmReader other) {
        return new JavaThreadList(this, other);
    }

    List<JavaThreadInfo> read() throws MemoryReadException {
        for (int attempt = 0; attempt < 5; attempt++) {
            long list = reader.readLong(layout.threadListVariable);
            int length = reader.s32(list + layout.threadListLength);
            long threads = reader.readLong(list + layout.threadListThreads);
            if (length < 0 || length > MAX_THREADS) {
                continue;
            }
            List<JavaThreadInfo> result = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                long thread = reader.readLong(threads + 8L * i);
                JavaThreadInfo info = describe(thread);
                if (info != null) {
                    result.add(info);
                }
            }
            if (reader.readLong(layout.threadListVariable) == list) {
                return result;
            }
        }
        return List.of();
    }

    private JavaThreadInfo describe(long thread) {
        try {
            long osThread = reader.readLong(thread + layout.threadOsThread);
            long tid = osThread == 0 ? 0 : reader.field(osThread + layout.osThreadId, layout.osThreadIdWidth, false);
            int state = reader.s32(thread + layout.threadState);
            long anchor = thread + layout.threadAnchor;
            long sp = reader.readLong(anchor + layout.anchorSp);
            long pc = reader.readLong(anchor + layout.anchorPc);
            long fp = reader.readLong(anchor + layout.anchorFp);
            long base = reader.readLong(thread + layout.threadStackBase);
            long size = reader.readLong(thread + layout.threadStackSize);
            return new JavaThreadInfo(thread, tid, name(thread), state, sp, pc, fp, base - size, base);
        } catch (MemoryReadException e) {
            return null;
        }
    }

    /** The Java name of the {@code JavaThread} at {@code thread}, or null. */
    String name(long thread) {
        try {
            long reference = nameReference(thread);
            return reference == 0 ? null : heap.string(reference);
        } catch (MemoryReadException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Where the {@code String} of the thread's Java name is in the heap now, or 0: three reads, against the name's
     * own several, so that a thread whose name has not changed (nor moved) need not be read again.
     */
    long nameReference(long thread) throws MemoryReadException {
        long handle = reader.readLong(thread + threadObj + oopHandleObj);
        long threadOop = handle == 0 ? 0 : reader.readLong(handle);
        return threadOop == 0 ? 0 : heap.referenceField(threadOop, "name");
    }

    /**
     * The {@link #nameReference}s of the {@code JavaThread}s at {@code threads[0, count)} (0s skipped) into
     * {@code references}, 0 where one could not be read: four gathered reads for all of them.
     */
    void nameReferences(long[] threads, int count, long[] references) {
        long[] addresses = new long[count];
        long[] words = new long[count];
        boolean[] read = new boolean[count];
        for (int i = 0; i < count; i++) {
            addresses[i] = threads[i] == 0 ? 0 : threads[i] + threadObj + oopHandleObj;
        }
        reader.memory().readWords(addresses, count, words, read);
        for (int i = 0; i < count; i++) {
            addresses[i] = read[i] ? words[i] : 0;
        }
        reader.memory().readWords(addresses, count, words, read);
        for (int i = 0; i < count; i++) {
            words[i] = addresses[i] != 0 && read[i] ? words[i] : 0;
        }
        heap.referenceFields(words, count, "name", references);
    }

    /** The {@code String}s at {@code references[0, count)} into {@code names}, null where one could not be read. */
    void strings(long[] references, int count, String[] names) {
        heap.strings(references, count, names);
    }
}
