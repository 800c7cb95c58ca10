package io.mixflame.hotspot.linux;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.capture.nativecode.MixflameNativeLibrary;
import io.mixflame.hotspot.census.CodeHeapCensus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The census of the profiler's own JVM's code heaps ({@code src/main/native/code_census.c}): a walk from block to
 * block with plain loads: about 0.6 ms for 1 800 blobs here (a cache and TLB miss or two per block), where reading
 * each header through the kernel would take a system call per blob. The rows go into off-heap memory that grows with the code cache, up to
 * {@value #MAX_ROWS} blobs.
 */
public final class NativeCodeCensus implements CodeHeapCensus {
    private static final int ROW_BYTES = 40;
    private static final int FIRST_ROWS = 4096;
    /** A code cache of 240 MB in blobs of 2 KB; beyond, the census says it is cut short. */
    private static final int MAX_ROWS = 1 << 17;

    private static String bindFailure;
    private static boolean bound;

    private Memory rows;
    private ByteBuffer view;
    private int capacity;
    private final int[] incomplete = new int[1];

    private NativeCodeCensus() {
        // The rows' memory is taken at the first census: most profiles, whose walks keep up, never take one.
    }

    /** A census of this process's JVM, or null where mixflame's native library cannot be had (see {@link #why}). */
    public static synchronized NativeCodeCensus inProcess() {
        if (!bound && bindFailure == null) {
            bindFailure = MixflameNativeLibrary.bind(Calls.class);
            bound = bindFailure == null;
        }
        return bound ? new NativeCodeCensus() : null;
    }

    /** Why {@link #inProcess} gave none, in one line; null when it did. */
    public static synchronized String why() {
        return bindFailure;
    }

    private void allocate(int rowCount) {
        if (rows != null) {
            rows.close();
        }
        capacity = rowCount;
        rows = new Memory((long) rowCount * ROW_BYTES);
        view = rows.getByteBuffer(0, (long) rowCount * ROW_BYTES).order(ByteOrder.nativeOrder());
    }

    @Override
    public int take(long[] heaps, int heapCount, long[] layout) {
        if (rows == null) {
            allocate(FIRST_ROWS);
        }
        long n = Calls.mixflame_code_census(heaps, heapCount, layout, rows, capacity, incomplete);
        if (n < 0) {
            long needed = -n - 1;
            if (needed > MAX_ROWS) {
                return -1;
            }
            allocate((int) Math.min(MAX_ROWS, Math.max(needed + needed / 4, capacity * 2L)));
            n = Calls.mixflame_code_census(heaps, heapCount, layout, rows, capacity, incomplete);
        }
        return n < 0 || incomplete[0] != 0 ? -1 : (int) n;
    }

    @Override
    public long start(int row) {
        return view.getLong(row * ROW_BYTES);
    }

    @Override
    public long end(int row) {
        return view.getLong(row * ROW_BYTES + 8);
    }

    @Override
    public long name(int row) {
        return view.getLong(row * ROW_BYTES + 16);
    }

    @Override
    public long method(int row) {
        return view.getLong(row * ROW_BYTES + 24);
    }

    @Override
    public int compileId(int row) {
        return (int) view.getLong(row * ROW_BYTES + 32);
    }

    private static final class Calls {
        static native long mixflame_code_census(long[] heaps, int heapCount, long[] layout, Pointer out, long capacity,
                                                int[] incomplete);
    }
}
