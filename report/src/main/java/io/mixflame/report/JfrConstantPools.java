package io.mixflame.report;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The constants a chunk's events refer to by key — threads, stack traces, methods, classes, symbols, frame types and
 * thread states — each given once, and written as the body of JFR's checkpoint event.
 *
 * <p>Entries are laid out field by field in {@link JfrMetadata}'s order. Frame types and thread states are keyed by
 * their index in the lists given (async-profiler's converter takes a frame type's key for its number, as the JDK
 * and async-profiler number them); other keys start at 1, 0 being a null reference. A thread is keyed by its OS
 * thread id when that is free and fits an int, because the converter names a thread {@code [name tid=KEY]}.
 */
final class JfrConstantPools {

    /** The most bytes of one pool, and of all pools together. */
    static final int MAX_BYTES = 1 << 30;

    private final List<String> frameTypes;
    private final List<String> threadStates;
    private final Map<String, Long> symbols = new HashMap<>();
    private final Map<Long, Long> classes = new HashMap<>();
    private final Map<Method, Long> methods = new HashMap<>();
    private final Map<ByteBuffer, Long> traces = new HashMap<>();
    private final Map<SampledThread, Long> threads = new LinkedHashMap<>();
    private final Set<Long> threadKeys = new HashSet<>();
    private final JfrBuffer symbolPool = new JfrBuffer(MAX_BYTES);
    private final JfrBuffer classPool = new JfrBuffer(MAX_BYTES);
    private final JfrBuffer methodPool = new JfrBuffer(MAX_BYTES);
    private final JfrBuffer tracePool = new JfrBuffer(MAX_BYTES);
    private final JfrBuffer threadPool = new JfrBuffer(MAX_BYTES);
    private long spareThreadKey = Integer.MAX_VALUE;

    private record Method(long classKey, long nameKey, long descriptorKey, int modifiers) {
    }

    private record SampledThread(String name, long osThreadId) {
    }

    JfrConstantPools(List<String> frameTypes, List<String> threadStates) {
        this.frameTypes = List.copyOf(frameTypes);
        this.threadStates = List.copyOf(threadStates);
    }

    /** The key of a method of the class named {@code className} (an empty name for native code). */
    long method(String className, String name, String descriptor, int modifiers) throws IOException {
        Method m = new Method(classKey(className), symbol(name), symbol(descriptor), modifiers);
        Long key = methods.get(m);
        if (key == null) {
            key = (long) methods.size() + 1;
            methods.put(m, key);
            methodPool.putVarLong(key).putVarLong(m.classKey()).putVarLong(m.nameKey())
                    .putVarLong(m.descriptorKey()).putVarLong(modifiers).putBoolean(false);
        }
        return key;
    }

    /**
     * The key of a stack trace of these methods, leaf first, each with its line (0 when not known) and the index of
     * its frame type. Bytecode indexes are not kept: written as 0.
     */
    long stackTrace(long[] methodKeys, int[] lines, int[] frameTypeIndexes) throws IOException {
        JfrBuffer trace = new JfrBuffer(MAX_BYTES).putBoolean(false).putVarLong(methodKeys.length);
        for (int i = 0; i < methodKeys.length; i++) {
            trace.putVarLong(methodKeys[i]).putVarLong(lines[i]).putVarLong(0).putVarLong(frameTypeIndexes[i]);
        }
        ByteBuffer content = trace.asKey();
        Long key = traces.get(content);
        if (key == null) {
            key = (long) traces.size() + 1;
            traces.put(content, key);
            tracePool.putVarLong(key).put(trace);
        }
        return key;
    }

    /** The key of the thread with this name and OS thread id. */
    long thread(String name, long osThreadId) throws IOException {
        SampledThread t = new SampledThread(name, osThreadId);
        Long key = threads.get(t);
        if (key == null) {
            key = osThreadId > 0 && osThreadId <= Integer.MAX_VALUE && !threadKeys.contains(osThreadId)
                    ? osThreadId : spareThreadKey();
            threads.put(t, key);
            threadKeys.add(key);
            // The converter reads the OS thread id as an int; the JDK has no Java thread id for us to give.
            threadPool.putVarLong(key).putString(name).putVarLong(osThreadId).putString(name).putVarLong(0);
        }
        return key;
    }

    /** The checkpoint event's body after its type id: start time, duration, delta to the previous one, pools. */
    void writeCheckpointBody(JfrBuffer out, long startTicks) throws IOException {
        // Delta 0: the only checkpoint of the chunk. The next byte (a flush flag to the JDK) is 0.
        out.putVarLong(startTicks).putVarLong(0).putVarLong(0).putByte(0);
        // The JDK refuses an empty pool: a pool without entries is left out.
        int pools = 2 + (threads.isEmpty() ? 0 : 1) + (traces.isEmpty() ? 0 : 4);
        out.putVarLong(pools);
        writeNames(out, JfrMetadata.FRAME_TYPE, frameTypes);
        writeNames(out, JfrMetadata.THREAD_STATE, threadStates);
        if (!threads.isEmpty()) {
            out.putVarLong(JfrMetadata.THREAD).putVarLong(threads.size()).put(threadPool);
        }
        if (!traces.isEmpty()) {
            out.putVarLong(JfrMetadata.STACK_TRACE).putVarLong(traces.size()).put(tracePool);
            out.putVarLong(JfrMetadata.METHOD).putVarLong(methods.size()).put(methodPool);
            out.putVarLong(JfrMetadata.CLASS).putVarLong(classes.size()).put(classPool);
            out.putVarLong(JfrMetadata.SYMBOL).putVarLong(symbols.size()).put(symbolPool);
        }
    }

    private static void writeNames(JfrBuffer out, long type, List<String> names) throws IOException {
        out.putVarLong(type).putVarLong(names.size());
        for (int i = 0; i < names.size(); i++) {
            out.putVarLong(i).putString(names.get(i));
        }
    }

    /** The key of the class of this internal name ({@code java/lang/String}, {@code [I}). */
    long classKey(String name) throws IOException {
        long nameKey = symbol(name);
        Long key = classes.get(nameKey);
        if (key == null) {
            key = (long) classes.size() + 1;
            classes.put(nameKey, key);
            // No class loader, no package: null references.
            classPool.putVarLong(key).putVarLong(0).putVarLong(nameKey).putVarLong(0).putVarLong(0).putBoolean(false);
        }
        return key;
    }

    private long symbol(String text) throws IOException {
        Long key = symbols.get(text);
        if (key == null) {
            key = (long) symbols.size() + 1;
            symbols.put(text, key);
            symbolPool.putVarLong(key).putString(text);
        }
        return key;
    }

    private long spareThreadKey() {
        while (threadKeys.contains(spareThreadKey)) {
            spareThreadKey--;
        }
        return spareThreadKey--;
    }
}
