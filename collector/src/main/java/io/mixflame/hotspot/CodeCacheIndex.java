package io.mixflame.hotspot;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.cache.MonotonicClock;
import io.mixflame.hotspot.census.CodeCensusLog;
import io.mixflame.hotspot.census.CodeHeapCensus;
import io.mixflame.process.MemoryReadException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Finds the code blob that holds a pc, through the code heaps' segment maps (one byte per segment, counting back
 * to the start of the block), and reads the blob's header. Blob descriptions are cached by the pc they were found
 * for and checked again after {@value #REVALIDATE_NANOS} ns, since the code cache frees and reuses blocks.
 */
final class CodeCacheIndex {
    private static final int FREE_SEGMENT = 0xff;
    private static final int MAX_HOPS = 1 << 16;
    private static final int CACHE_LIMIT = 16_384;
    private static final long REVALIDATE_NANOS = 1_000_000_000L;
    /** How late a walk must be for the code cache's history to be kept. */
    static final long CENSUS_LAG_NANOS = 200_000_000L;

    /** One code heap's committed range and segment map. */
    private record Heap(long address, long low, long high, long segmap, int log2Segment) implements Comparable<Heap> {
        @Override
        public int compareTo(Heap other) {
            return Long.compareUnsigned(low, other.low);
        }
    }

    private record Cached(CodeBlobInfo blob, long checkedAt) {
    }

    private final HotSpotLayout layout;
    private final VmReader reader;
    private List<Heap> heaps = List.of();
    private long lowBound;
    private long highBound;
    /** Looked up for every frame, up to three times: keyed by the pc itself, so that a lookup boxes nothing. */
    private final LongKeyedCache<Cached> byPc = new LongKeyedCache<>(CACHE_LIMIT);
    private final Map<Long, String> names = new HashMap<>();
    /** Blobs by start, for pcs never seen before inside a blob already known (the innermost frame's pc varies). */
    private final TreeMap<Long, Cached> byStart = new TreeMap<>();

    private final LongSupplier clock;
    /**
     * The census of the heaps, asked for at the first census due: binding it loads mixflame's native library, which
     * walks that keep up never need. Null where none can be taken, or once asked.
     */
    private Supplier<CodeHeapCensus> censusSource;
    /** The code cache's recent history, from the first census on; null before, or where none can be taken. */
    private CodeCacheHistory history;
    /** The heaps' CodeHeap structures for the census, in the order of the memory they hold. */
    private long[] censusHeaps = new long[0];
    /** Censuses taken ahead of the walker by a thread no safepoint stops; null where none runs. */
    private CodeCensusLog ahead;
    /** When the sample being walked was taken (the clock's time); 0: now. */
    private long sampleTime;

    CodeCacheIndex(HotSpotLayout layout, VmReader reader) throws MemoryReadException {
        this(layout, reader, MonotonicClock.NANOS, null);
    }

    /**
     * With the clock that times revalidation and censuses given (tests move it instead of waiting), and a census of
     * the heaps (null where none can be taken: the code cache's history is then not kept).
     */
    CodeCacheIndex(HotSpotLayout layout, VmReader reader, LongSupplier clock, Supplier<CodeHeapCensus> census)
            throws MemoryReadException {
        this.layout = layout;
        this.reader = reader;
        this.clock = clock;
        readHeaps();
        this.censusSource = layout.blockLength < 0 ? null : census;
    }

    /** The history, made at the first census due where a census can be had; else null. */
    private CodeCacheHistory startHistory() {
        Supplier<CodeHeapCensus> source = censusSource;
        censusSource = null;
        CodeHeapCensus census = source == null ? null : source.get();
        if (census != null) {
            history = new CodeCacheHistory(census, censusLayout(), this::readGone);
        }
        return history;
    }

    private long[] censusLayout() {
        return new long[] {layout.heapMemory + layout.spaceLow, layout.heapMemory + layout.spaceHigh,
                layout.heapSegmap + layout.spaceLow, layout.heapLog2SegmentSize, layout.heapBlockSize,
                layout.blockLength, layout.blockUsed, layout.blobSize, layout.blobName, layout.nmMethod,
                layout.nmCompileId, layout.blockLengthWidth};
    }

    /** Starts censuses taken ahead of the walker: given the heaps, the census's layout and the header bytes to copy. */
    interface AheadStart {
        CodeCensusLog start(long[] heaps, long[] layout, long headerBytes);
    }

    /**
     * Has the code cache's history made of censuses taken ahead of the walker ({@link CodeCensusLog}) rather than by
     * the walker when it runs late; the walker's own censuses stay where none can start.
     *
     * @return whether they are
     */
    boolean keepAhead(AheadStart start) {
        if (ahead != null || censusSource == null || history != null || censusHeaps.length == 0) {
            return ahead != null;
        }
        ahead = start.start(censusHeaps.clone(), censusLayout(), layout.blobHeaderBytes);
        return ahead != null;
    }

    /** The censuses taken ahead of the walker, or null where none are. */
    CodeCensusLog ahead() {
        return ahead;
    }

    /** Tells the censuses' thread that the walker waits for samples: no walk is late while none waits. */
    void walkerWaiting() {
        CodeCensusLog log = ahead;
        if (log != null) {
            log.walking(0);
        }
    }

    /** Applies the censuses taken ahead of the walker that it has not, where they are taken. */
    void applyAhead() {
        CodeCensusLog log = ahead;
        if (log != null) {
            readAhead(log);
        }
    }

    /** Applies every census taken ahead of the walker that it has not applied yet. */
    private void readAhead(CodeCensusLog log) {
        while (log.next()) {
            if (history == null) {
                history = new CodeCacheHistory(log, censusLayout(), this::readGone, this::readCopy);
                censusSource = null;
            }
            history.unchangedAt(log.unchangedAt());
            history.census(log.time(), censusHeaps, censusHeaps.length);
            log.consumed();
        }
    }

    /**
     * Says when the sample about to be walked was taken ({@code 0}: now), so that its pcs are looked up in the code
     * cache as it was then. While walks run later than {@link #CENSUS_LAG_NANOS} behind their samples, takes a census
     * of the heaps when one is due: a census reads every block's header (a few hundred microseconds for a few thousand
     * blobs), and walks that keep up find the code as it was without one.
     */
    void sampleTakenAt(long taken) {
        sampleTime = taken;
        CodeCensusLog log = ahead;
        if (log != null) {
            log.walking(taken);
            if (taken != 0) {
                readAhead(log);
            }
            return;
        }
        if (taken == 0 || (history == null && censusSource == null)) {
            return;
        }
        long now = clock.getAsLong();
        if (now - taken < CENSUS_LAG_NANOS) {
            return;
        }
        CodeCacheHistory h = history != null ? history : startHistory();
        if (h != null && h.due(now)) {
            h.census(now, censusHeaps, censusHeaps.length);
        }
    }

    /** The code cache's history, or null where it is not kept or no census has been due yet. */
    CodeCacheHistory history() {
        return history;
    }

    /**
     * A blob the census found gone: as a walk read it alive, or read now where its header is still as the census saw
     * it; else null.
     */
    private CodeBlobInfo readGone(CodeCacheHistory.Entry e) {
        Cached known = byStart.get(e.start);
        if (known != null && e.is(known.blob())) {
            return known.blob();
        }
        try {
            if (reader.readLong(e.start + layout.blobName) != e.name
                    || reader.s32(e.start + layout.blobSize) != (int) (e.end - e.start)
                    || reader.readLong(e.start + layout.nmMethod) != e.method) {
                return null;
            }
            CodeBlobInfo blob = readBlob(e.start);
            return blob != null && e.is(blob) ? blob : null;
        } catch (MemoryReadException | RuntimeException ex) {
            return null;
        }
    }

    /** A blob born, from the copy of its header the census took as it found it; null when the copy is not of it. */
    private CodeBlobInfo readCopy(CodeCacheHistory.Entry e, ByteBuffer header) {
        try {
            CodeBlobInfo blob = readBlob(e.start, header);
            return blob != null && e.is(blob) ? blob : null;
        } catch (MemoryReadException | RuntimeException ex) {
            return null;
        }
    }

    /** Whether a pc is in the code cache's reserved range (cheap, no read). */
    boolean inCodeCache(long pc) {
        return pc >= lowBound && pc < highBound;
    }

    /** The blob holding pc when the sample being walked was taken ({@link #sampleTakenAt}), or null. */
    CodeBlobInfo find(long pc) {
        if (!inCodeCache(pc)) {
            return null;
        }
        CodeBlobInfo now = findNow(pc);
        return history == null || sampleTime == 0 ? now : history.at(pc, sampleTime, now);
    }

    /** The blob holding pc now, or null. */
    private CodeBlobInfo findNow(long pc) {
        long now = clock.getAsLong();
        Cached cached = byPc.get(pc);
        if (cached != null && now - cached.checkedAt() < REVALIDATE_NANOS) {
            return cached.blob();
        }
        Map.Entry<Long, Cached> around = byStart.floorEntry(pc);
        if (around != null && around.getValue().blob().contains(pc) && now - around.getValue().checkedAt() < REVALIDATE_NANOS) {
            byPc.put(pc, around.getValue());
            return around.getValue().blob();
        }
        try {
            long start = blobStart(pc);
            if (start == 0) {
                byPc.put(pc, null);
                return null;
            }
            CodeBlobInfo blob = cached != null && cached.blob().start() == start && cached.blob().contains(pc)
                    && sameBlob(cached.blob()) ? cached.blob() : readBlob(start);
            if (blob == null || !blob.contains(pc)) {
                return null;
            }
            Cached fresh = new Cached(blob, now);
            byPc.put(pc, fresh);
            if (byStart.size() >= CACHE_LIMIT) {
                byStart.clear();
            }
            byStart.put(blob.start(), fresh);
            return blob;
        } catch (MemoryReadException | RuntimeException e) {
            return null;
        }
    }

    private boolean sameBlob(CodeBlobInfo blob) throws MemoryReadException {
        // A freed block is often reused by an nmethod of the same size: the Method* tells them apart.
        return reader.readLong(blob.start() + layout.blobName) != 0
                && reader.s32(blob.start() + layout.blobSize) == (int) (blob.end() - blob.start())
                && (!blob.isJava() || reader.readLong(blob.start() + layout.nmMethod) == blob.method());
    }

    private void readHeaps() throws MemoryReadException {
        long array = reader.readLong(layout.heapsVariable);
        int length = reader.s32(array + layout.arrayLength);
        long data = reader.readLong(array + layout.arrayData);
        List<Heap> list = new ArrayList<>();
        for (int i = 0; i < Math.min(length, 16); i++) {
            long heap = reader.readLong(data + 8L * i);
            long low = reader.readLong(heap + layout.heapMemory + layout.spaceLow);
            long high = reader.readLong(heap + layout.heapMemory + layout.spaceHigh);
            long segmap = reader.readLong(heap + layout.heapSegmap + layout.spaceLow);
            int log2 = reader.s32(heap + layout.heapLog2SegmentSize);
            if (log2 > 0 && log2 < 20) {
                list.add(new Heap(heap, low, high, segmap, log2));
            }
        }
        list.sort(null);
        heaps = List.copyOf(list);
        if (censusHeaps.length != heaps.size()) {
            censusHeaps = new long[heaps.size()];
        }
        for (int i = 0; i < heaps.size(); i++) {
            censusHeaps[i] = heaps.get(i).address();
        }
        lowBound = reader.readLong(layout.lowBoundVariable);
        highBound = reader.readLong(layout.highBoundVariable);
    }

    private long blobStart(long pc) throws MemoryReadException {
        Heap heap = heapOf(pc);
        if (heap == null) {
            // The committed part of a heap grows; read the heaps again before giving up.
            readHeaps();
            heap = heapOf(pc);
            if (heap == null) {
                return 0;
            }
        }
        long segment = (pc - heap.low()) >>> heap.log2Segment();
        int hop = reader.u8(heap.segmap() + segment);
        if (hop == FREE_SEGMENT) {
            return 0;
        }
        for (int i = 0; hop != 0; i++) {
            if (i > MAX_HOPS || hop > segment) {
                return 0;
            }
            segment -= hop;
            hop = reader.u8(heap.segmap() + segment);
        }
        long block = heap.low() + (segment << heap.log2Segment());
        if (reader.u8(block + layout.blockUsed) == 0) {
            return 0;
        }
        return block + layout.heapBlockSize;
    }

    private Heap heapOf(long pc) {
        for (Heap h : heaps) {
            if (pc >= h.low() && pc < h.high()) {
                return h;
            }
        }
        return null;
    }

    private CodeBlobInfo readBlob(long start) throws MemoryReadException {
        HotSpotLayout l = layout;
        // A copy: reading the name below reuses the reader's buffer.
        ByteBuffer b = ByteBuffer.allocate((int) l.blobHeaderBytes).order(ByteOrder.LITTLE_ENDIAN)
                .put(reader.block(start, (int) l.blobHeaderBytes)).flip();
        return readBlob(start, b);
    }

    /** A blob read from a copy of its header (little-endian, from index 0); the name is read from the JVM. */
    private CodeBlobInfo readBlob(long start, ByteBuffer b) throws MemoryReadException {
        HotSpotLayout l = layout;
        int size = b.getInt((int) l.blobSize);
        if (size <= 0) {
            return null;
        }
        long namePtr = b.getLong((int) l.blobName);
        int frameSize = b.getInt((int) l.blobFrameSize);
        int frameComplete = l.blobFrameCompleteWidth == 2 ? b.getShort((int) l.blobFrameComplete)
                : b.getInt((int) l.blobFrameComplete);
        long codeBegin = l.codeOffsetsRelative ? start + b.getInt((int) l.blobCodeBegin) : b.getLong((int) l.blobCodeBegin);
        long codeEnd = l.codeOffsetsRelative ? start + b.getInt((int) l.blobCodeEnd) : b.getLong((int) l.blobCodeEnd);
        String name = name(namePtr);
        BlobKind kind = switch (name) {
            case "nmethod" -> BlobKind.NMETHOD;
            case "native nmethod" -> BlobKind.NATIVE_WRAPPER;
            case "Interpreter" -> BlobKind.INTERPRETER;
            default -> BlobKind.STUB;
        };
        long method = 0;
        int level = 0;
        long deopt = 0;
        long deoptMh = 0;
        int origPc = 0;
        long pcsBegin = 0;
        long pcsEnd = 0;
        long scopes = 0;
        long metadata = 0;
        long verifiedEntry = codeBegin;
        if (kind == BlobKind.NMETHOD || kind == BlobKind.NATIVE_WRAPPER) {
            method = b.getLong((int) l.nmMethod);
            level = l.nmCompLevelWidth == 1 ? b.get((int) l.nmCompLevel) : b.getInt((int) l.nmCompLevel);
            origPc = b.getInt((int) l.nmOrigPcOffset);
            if (l.nmVerifiedEntry >= 0) {
                verifiedEntry = verifiedEntry(b, codeBegin);
            }
            if (l.deoptRelative) {
                deopt = start + b.getInt((int) l.nmDeoptHandler);
                deoptMh = start + b.getInt((int) l.nmDeoptMhHandler);
            } else {
                deopt = b.getLong((int) l.nmDeoptHandler);
                deoptMh = b.getLong((int) l.nmDeoptMhHandler);
            }
            if (l.immutableData) {
                long immutable = b.getLong((int) l.nmImmutableData);
                pcsBegin = immutable + b.getInt((int) l.nmScopesPcsOffset);
                pcsEnd = immutable + b.getInt((int) l.nmScopesPcsEndOffset);
                scopes = immutable + b.getInt((int) l.nmScopesDataBegin);
                long mutable = b.getLong((int) l.blobMutableData);
                metadata = mutable + b.getInt((int) l.blobRelocationSize);
            } else {
                pcsBegin = start + b.getInt((int) l.nmScopesPcsOffset);
                pcsEnd = start + b.getInt((int) l.nmScopesPcsEndOffset);
                scopes = b.getLong((int) l.nmScopesDataBegin);
                metadata = start + b.getInt((int) l.nmMetadataOffset);
            }
        }
        return new CodeBlobInfo(start, start + size, kind, name, codeBegin, codeEnd, frameSize, frameComplete, method,
                level, deopt, deoptMh, origPc, pcsBegin, pcsEnd, scopes, metadata, verifiedEntry);
    }

    private long verifiedEntry(ByteBuffer header, long codeBegin) {
        int at = (int) layout.nmVerifiedEntry;
        if (!layout.verifiedEntryRelative) {
            return header.getLong(at);
        }
        long offset = switch (layout.nmVerifiedEntryWidth) {
            case 2 -> header.getShort(at) & 0xffff;
            case 4 -> header.getInt(at);
            default -> header.getLong(at);
        };
        return codeBegin + offset;
    }

    private String name(long pointer) throws MemoryReadException {
        String name = names.get(pointer);
        if (name == null) {
            name = reader.cString(pointer);
            if (names.size() < CACHE_LIMIT) {
                names.put(pointer, name);
            }
        }
        return name;
    }
}
