package io.mixflame.hotspot.linux;

import com.sun.jna.Pointer;
import io.mixflame.capture.nativecode.MixflameNativeLibrary;
import io.mixflame.hotspot.census.CodeCensusLog;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The code cache's keeper ({@code src/main/native/code_keeper.c}): a native thread of this process that takes censuses
 * of its JVM's code heaps while walks are late, and a log of what changed between them, read back here batch by
 * batch. The thread's words and the log are read and written through direct buffers over its memory: the walker's
 * calls for each sample cost a load or a store, not a native call.
 */
public final class NativeCodeKeeper implements CodeCensusLog {
    /** The log's length: about 14 000 blobs born (each with its header) waiting for the walker. */
    static final long LOG_BYTES = 4L << 20;
    private static final int ROW_WORDS = 5;
    private static final int BATCH_BYTES = 48;
    private static final long KIND_BATCH = 1;
    private static final long KIND_PAD = 2;
    private static final long LENGTH_MASK = (1L << 56) - 1;

    private static String bindFailure;
    private static boolean bound;

    private final long handle;
    private final ByteBuffer walkingWord;
    private final ByteBuffer headWord;
    private final ByteBuffer tailWord;
    private final ByteBuffer counts;
    private final ByteBuffer log;
    private boolean stopped;
    private boolean freed;

    /** The rows as of the last batch applied: start, end, name, Method*, compile id. */
    private long[] rows = new long[0];
    private long[] spare = new long[0];
    private int rowCount;
    /** For each row, where its header copy lies in the log (born in the last batch), or -1; and its length. */
    private int[] headerAt = new int[0];
    private int[] headerLength = new int[0];
    private int[] spareHeaderAt = new int[0];
    private int[] spareHeaderLength = new int[0];

    private long tail;
    private long batchBytes;
    private long time;
    private long unchangedAt;
    private long inconsistent;
    /** The thread's counts as it stopped: censuses, cut short, dropped. */
    private final long[] finalCounts = new long[3];

    private NativeCodeKeeper(long handle) {
        this.handle = handle;
        walkingWord = words(Calls.mixflame_keeper_word(handle, 0), 8);
        headWord = words(Calls.mixflame_keeper_word(handle, 1), 8);
        tailWord = words(Calls.mixflame_keeper_word(handle, 2), 8);
        log = words(Calls.mixflame_keeper_word(handle, 3), LOG_BYTES);
        counts = words(Calls.mixflame_keeper_word(handle, 4), 24);
    }

    private static ByteBuffer words(long address, long bytes) {
        return new Pointer(address).getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
    }

    /**
     * Starts a keeper of this process's JVM's code heaps.
     *
     * @param heaps       the CodeHeap structures, in the order of the memory they hold
     * @param layout      the census's layout ({@link io.mixflame.hotspot.census.CodeHeapCensus#LAYOUT_WORDS} words)
     * @param headerBytes how much of a compiled blob born to copy: what reading its header needs
     * @param watched     metadata pages of rings in perf's layout where samples wait for the walker
     * @param why         where the reason goes, in one line, when none is started
     * @return the keeper, or null (see {@code why})
     */
    public static NativeCodeKeeper start(long[] heaps, long[] layout, long headerBytes, long[] watched,
                                         String[] why) {
        String failure = bind();
        if (failure != null) {
            why[0] = failure;
            return null;
        }
        long handle = Calls.mixflame_keeper_start(heaps, heaps.length, layout, headerBytes, watched, watched.length,
                LOG_BYTES);
        if (handle < 0 && handle > -4096) {
            why[0] = "the code cache's keeper could not start (errno " + -handle + ")";
            return null;
        }
        return new NativeCodeKeeper(handle);
    }

    private static synchronized String bind() {
        if (!bound && bindFailure == null) {
            bindFailure = MixflameNativeLibrary.bind(Calls.class);
            bound = bindFailure == null;
        }
        return bindFailure;
    }

    @Override
    public void walking(long sampleTime) {
        if (!freed) {
            walkingWord.putLong(0, sampleTime);
        }
    }

    @Override
    public boolean next() {
        if (freed || inconsistent > 0) {
            return false;
        }
        long head = headWord.getLong(0);
        while (tail < head) {
            int offset = (int) (tail % LOG_BYTES);
            long first = log.getLong(offset);
            long kind = first >>> 56;
            long length = first & LENGTH_MASK;
            if (kind == KIND_PAD) {
                tail += length;
                continue;
            }
            if (kind != KIND_BATCH || length < BATCH_BYTES || offset + length > LOG_BYTES) {
                inconsistent++;
                return false;
            }
            batchBytes = length;
            time = log.getLong(offset + 8);
            unchangedAt = log.getLong(offset + 40);
            if (!apply(offset)) {
                inconsistent++;
                return false;
            }
            return true;
        }
        return false;
    }

    /** Applies the batch at {@code offset}: the rows gone leave, the rows born come in, in address order. */
    private boolean apply(int offset) {
        long gone = log.getLong(offset + 16);
        long born = log.getLong(offset + 24);
        long after = log.getLong(offset + 32);
        if (gone < 0 || gone > rowCount || born < 0 || after < 0 || after != rowCount - gone + born
                || after > Integer.MAX_VALUE / ROW_WORDS) {
            return false;
        }
        int total = (int) after;
        if (spare.length < total * ROW_WORDS) {
            spare = new long[Math.max(total * ROW_WORDS, spare.length * 2)];
            spareHeaderAt = new int[spare.length / ROW_WORDS];
            spareHeaderLength = new int[spare.length / ROW_WORDS];
        }
        int goneAt = offset + BATCH_BYTES;
        int bornAt = goneAt + (int) gone * 8;
        int goneIndex = 0;
        int bornIndex = 0;
        int k = 0;
        int i = 0;
        int end = offset + (int) batchBytes;
        while (i < rowCount || bornIndex < born) {
            long oldStart = i < rowCount ? rows[i * ROW_WORDS] : Long.MAX_VALUE;
            if (i < rowCount && goneIndex < gone && log.getLong(goneAt + goneIndex * 8) == oldStart) {
                goneIndex++;
                i++;
                continue;
            }
            long bornStart = bornIndex < born ? log.getLong(bornAt) : Long.MAX_VALUE;
            if (k >= total) {
                return false;
            }
            if (bornIndex < born && Long.compareUnsigned(bornStart, oldStart) <= 0) {
                if (bornAt + (ROW_WORDS + 1) * 8 > end) {
                    return false;
                }
                for (int w = 0; w < ROW_WORDS; w++) {
                    spare[k * ROW_WORDS + w] = log.getLong(bornAt + w * 8);
                }
                int copy = (int) log.getLong(bornAt + ROW_WORDS * 8);
                int words = (copy + 7) / 8;
                if (copy < 0 || bornAt + (ROW_WORDS + 1 + words) * 8 > end) {
                    return false;
                }
                spareHeaderAt[k] = copy == 0 ? -1 : bornAt + (ROW_WORDS + 1) * 8;
                spareHeaderLength[k] = copy;
                bornAt += (ROW_WORDS + 1 + words) * 8;
                bornIndex++;
            } else {
                System.arraycopy(rows, i * ROW_WORDS, spare, k * ROW_WORDS, ROW_WORDS);
                spareHeaderAt[k] = -1;
                i++;
            }
            k++;
        }
        if (goneIndex != gone || k != total) {
            return false;
        }
        long[] swap = rows;
        rows = spare;
        spare = swap;
        int[] swapAt = headerAt;
        headerAt = spareHeaderAt;
        spareHeaderAt = swapAt;
        int[] swapLength = headerLength;
        headerLength = spareHeaderLength;
        spareHeaderLength = swapLength;
        rowCount = total;
        return true;
    }

    @Override
    public long time() {
        return time;
    }

    @Override
    public long unchangedAt() {
        return unchangedAt;
    }

    @Override
    public void consumed() {
        if (batchBytes == 0) {
            return;
        }
        tail += batchBytes;
        batchBytes = 0;
        Arrays.fill(headerAt, 0, rowCount, -1);
        tailWord.putLong(0, tail);
    }

    @Override
    public int take(long[] heaps, int heapCount, long[] layout) {
        return rowCount;
    }

    @Override
    public long start(int row) {
        return rows[row * ROW_WORDS];
    }

    @Override
    public long end(int row) {
        return rows[row * ROW_WORDS + 1];
    }

    @Override
    public long name(int row) {
        return rows[row * ROW_WORDS + 2];
    }

    @Override
    public long method(int row) {
        return rows[row * ROW_WORDS + 3];
    }

    @Override
    public int compileId(int row) {
        return (int) rows[row * ROW_WORDS + 4];
    }

    @Override
    public ByteBuffer header(int row) {
        int at = headerAt[row];
        if (at < 0) {
            return null;
        }
        byte[] copy = new byte[headerLength[row]];
        log.get(at, copy);
        return ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public long censuses() {
        return count(0);
    }

    @Override
    public long cutShort() {
        return count(1);
    }

    @Override
    public long dropped() {
        return count(2);
    }

    private synchronized long count(int which) {
        return freed ? finalCounts[which] : counts.getLong(which * 8);
    }

    @Override
    public long inconsistent() {
        return inconsistent;
    }

    @Override
    public synchronized void stop(boolean free) {
        if (!stopped) {
            stopped = true;
            Calls.mixflame_keeper_stop(handle);
        }
        if (free && !freed) {
            for (int i = 0; i < finalCounts.length; i++) {
                finalCounts[i] = counts.getLong(i * 8);
            }
            freed = true;
            Calls.mixflame_keeper_free(handle);
        }
    }

    private static final class Calls {
        static native long mixflame_keeper_start(long[] heaps, int heapCount, long[] layout, long headerBytes,
                                                 long[] watched, int watchedCount, long logBytes);

        static native long mixflame_keeper_word(long handle, int which);

        static native int mixflame_keeper_stop(long handle);

        static native int mixflame_keeper_free(long handle);
    }
}
