package io.mixflame.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Writes one JFR chunk: the 68-byte header, the metadata event, the checkpoint event of constant pools, then the
 * events, each framed as its size (a varint counting itself) and its type id.
 *
 * <p>Hand-written rather than JDK Mission Control's writer, which pools every string and numbers constants itself:
 * async-profiler's converter reads symbols only inline as UTF-8 and reads constant pools and frame types by
 * position and key, so only a writer that controls the layout makes files that the JDK, JMC and async-profiler all
 * read (the project's documented exception to preferring a maintained library).
 *
 * <p>The metadata and constant pools come before the events (as in async-profiler's files, the header points to
 * both), so the events are streamed: each is held as its type, its time, its fields after the time (shared by the
 * events of one stack) and how many times it repeats — some 24 bytes an event in primitive arrays, since a profile
 * with times has up to a quarter of a million and this runs inside the profiled service when it dumps. An event may
 * have a companion written right after each of its repeats (a sample's labels).
 */
final class JfrChunkWriter {

    /** Ticks are nanoseconds. */
    static final long TICKS_PER_SECOND = 1_000_000_000L;
    /** The chunk's first tick; every event of an aggregated profile is stamped with it. Not 0, which some take for unset. */
    static final long START_TICKS = 1;
    /** The most bytes of one event's fields after its time. */
    static final int MAX_FIELD_BYTES = 1 << 24;

    private static final int HEADER_SIZE = 68;
    private static final long METADATA_EVENT = 0;
    private static final long CHECKPOINT_EVENT = 1;
    /** Header flags: integers are compressed (varints); this is the recording's last chunk. */
    private static final int FLAGS = 1 | 2;

    private final long startNanos;
    private final long durationNanos;
    private int count;
    private long[] typeIds;
    private long[] ticks;
    private byte[][] fields;
    private long[] repeats;
    // Allocated at the first event that has a companion: most profiles have no labels.
    private long[] companionTypes;
    private byte[][] companionFields;

    /**
     * A chunk that starts at {@code startNanos} since the epoch and lasts {@code durationNanos}, with room for
     * {@code expectedEvents} distinct events before it grows.
     */
    JfrChunkWriter(long startNanos, long durationNanos, int expectedEvents) {
        this.startNanos = startNanos;
        this.durationNanos = Math.max(0, durationNanos);
        int capacity = Math.max(16, expectedEvents);
        typeIds = new long[capacity];
        ticks = new long[capacity];
        fields = new byte[capacity][];
        repeats = new long[capacity];
    }

    /** A buffer for an event's fields after its time, for {@link #add}. */
    static JfrBuffer fields() {
        return new JfrBuffer(MAX_FIELD_BYTES);
    }

    /** The ticks of a moment, in nanoseconds since the epoch; the chunk's first tick for a moment before it. */
    long ticksAt(long epochNanos) {
        return START_TICKS + Math.max(0, epochNanos - startNanos);
    }

    /**
     * Adds an event of type {@code typeId} at {@code at} ticks ({@link #ticksAt}, or {@link #START_TICKS}) to be
     * written {@code times} times; {@code eventFields} (its fields after the time) is kept, not copied.
     */
    void add(long typeId, long at, byte[] eventFields, long times) {
        add(typeId, at, eventFields, 0, null, times);
    }

    /**
     * As {@link #add(long, long, byte[], long)}, each of the {@code times} events followed right away by a companion
     * event of type {@code companionType} at the same time with {@code companionEventFields} (none when that is null),
     * so that a reader going through the file in order finds each event's companion after it.
     */
    void add(long typeId, long at, byte[] eventFields, long companionType, byte[] companionEventFields, long times) {
        if (times <= 0) {
            return;
        }
        if (count == typeIds.length) {
            int grown = Math.multiplyExact(count, 2);
            typeIds = Arrays.copyOf(typeIds, grown);
            ticks = Arrays.copyOf(ticks, grown);
            fields = Arrays.copyOf(fields, grown);
            repeats = Arrays.copyOf(repeats, grown);
            if (companionTypes != null) {
                companionTypes = Arrays.copyOf(companionTypes, grown);
                companionFields = Arrays.copyOf(companionFields, grown);
            }
        }
        if (companionEventFields != null && companionTypes == null) {
            companionTypes = new long[typeIds.length];
            companionFields = new byte[typeIds.length][];
        }
        typeIds[count] = typeId;
        ticks[count] = at;
        fields[count] = eventFields;
        repeats[count] = times;
        if (companionTypes != null) {
            companionTypes[count] = companionEventFields == null ? 0 : companionType;
            companionFields[count] = companionEventFields;
        }
        count++;
    }

    private boolean hasCompanion(int i) {
        return companionFields != null && companionFields[i] != null;
    }

    /** Writes the chunk with this writer's events and the given constant pools; leaves {@code out} open. */
    void write(JfrConstantPools pools, OutputStream out) throws IOException {
        JfrBuffer metadata = new JfrBuffer(JfrConstantPools.MAX_BYTES).putVarLong(METADATA_EVENT);
        JfrMetadata.writeBody(metadata, START_TICKS);
        JfrBuffer checkpoint = new JfrBuffer(JfrConstantPools.MAX_BYTES).putVarLong(CHECKPOINT_EVENT);
        pools.writeCheckpointBody(checkpoint, START_TICKS);

        byte[] framedMetadata = framed(metadata);
        byte[] framedCheckpoint = framed(checkpoint);
        long metadataOffset = HEADER_SIZE;
        long checkpointOffset = metadataOffset + framedMetadata.length;
        long size = checkpointOffset + framedCheckpoint.length;
        for (int i = 0; i < count; i++) {
            long each = framedSize(bodySize(i)) + (hasCompanion(i) ? framedSize(companionBodySize(i)) : 0);
            size = Math.addExact(size, Math.multiplyExact(each, repeats[i]));
        }

        JfrBuffer header = new JfrBuffer(HEADER_SIZE);
        header.putBytes(new byte[] {'F', 'L', 'R', 0}, 0, 4);
        putShort(header, 2);
        putShort(header, 1);
        for (long v : new long[] {size, checkpointOffset, metadataOffset, startNanos, durationNanos, START_TICKS,
                TICKS_PER_SECOND}) {
            putLong(header, v);
        }
        // Generation 0 (the chunk is finished), two bytes of padding, the flags.
        header.putByte(0).putByte(0).putByte(0).putByte(FLAGS);

        OutputStream buffered = new BufferedOutputStream(new NonClosingOutputStream(out), 1 << 16);
        header.writeTo(buffered);
        buffered.write(framedMetadata);
        buffered.write(framedCheckpoint);
        // The size, type and time of an event: three varints.
        JfrBuffer head = new JfrBuffer(27);
        JfrBuffer companionHead = new JfrBuffer(27);
        for (int i = 0; i < count; i++) {
            long body = bodySize(i);
            head.clear().putVarLong(framedSize(body)).putVarLong(typeIds[i]).putVarLong(ticks[i]);
            boolean companion = hasCompanion(i);
            if (companion) {
                companionHead.clear().putVarLong(framedSize(companionBodySize(i))).putVarLong(companionTypes[i])
                        .putVarLong(ticks[i]);
            }
            for (long n = repeats[i]; n > 0; n--) {
                head.writeTo(buffered);
                buffered.write(fields[i]);
                if (companion) {
                    companionHead.writeTo(buffered);
                    buffered.write(companionFields[i]);
                }
            }
        }
        buffered.flush();
    }

    /** Bytes of event {@code i} after its size: type, time and fields. */
    private long bodySize(int i) {
        return JfrBuffer.varLongSize(typeIds[i]) + JfrBuffer.varLongSize(ticks[i]) + (long) fields[i].length;
    }

    /** Bytes of the companion of event {@code i} after its size: type, time and fields. */
    private long companionBodySize(int i) {
        return JfrBuffer.varLongSize(companionTypes[i]) + JfrBuffer.varLongSize(ticks[i])
                + (long) companionFields[i].length;
    }

    /** Bytes of an event of {@code body} bytes with its size in front; the size counts the varint that holds it. */
    private static long framedSize(long body) {
        int n = 1;
        while (JfrBuffer.varLongSize(body + n) != n) {
            n++;
        }
        return body + n;
    }

    /** The event with its size in front. */
    private static byte[] framed(JfrBuffer body) throws IOException {
        return new JfrBuffer(Integer.MAX_VALUE - 8).putVarLong(framedSize(body.size())).put(body).toByteArray();
    }

    private static void putShort(JfrBuffer b, int v) throws IOException {
        b.putByte(v >>> 8).putByte(v);
    }

    private static void putLong(JfrBuffer b, long v) throws IOException {
        for (int shift = 56; shift >= 0; shift -= 8) {
            b.putByte((int) (v >>> shift));
        }
    }
}
