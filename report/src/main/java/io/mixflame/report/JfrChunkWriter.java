package io.mixflame.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

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
 * both), so the events are streamed and only distinct events are held: an event repeated {@code n} times is held
 * once.
 */
final class JfrChunkWriter {

    /** Ticks are nanoseconds. */
    static final long TICKS_PER_SECOND = 1_000_000_000L;
    /** The chunk's first tick; every event of an aggregated profile is stamped with it. Not 0, which some take for unset. */
    static final long START_TICKS = 1;

    private static final int HEADER_SIZE = 68;
    private static final long METADATA_EVENT = 0;
    private static final long CHECKPOINT_EVENT = 1;
    private static final int MAX_EVENT_BYTES = 1 << 24;
    /** Header flags: integers are compressed (varints); this is the recording's last chunk. */
    private static final int FLAGS = 1 | 2;

    private final long startNanos;
    private final long durationNanos;
    private final List<JfrBuffer> events = new ArrayList<>();
    private final List<Long> repeats = new ArrayList<>();

    /** A chunk that starts at {@code startNanos} since the epoch and lasts {@code durationNanos}. */
    JfrChunkWriter(long startNanos, long durationNanos) {
        this.startNanos = startNanos;
        this.durationNanos = Math.max(0, durationNanos);
    }

    /** A new event of type {@code typeId} at the chunk's start, for the caller to add its other fields to. */
    static JfrBuffer event(long typeId) throws IOException {
        return event(typeId, START_TICKS);
    }

    /** A new event of type {@code typeId} at {@code ticks} ({@link #ticksAt}), for the caller to add fields to. */
    static JfrBuffer event(long typeId, long ticks) throws IOException {
        return new JfrBuffer(MAX_EVENT_BYTES).putVarLong(typeId).putVarLong(ticks);
    }

    /** The ticks of a moment, in nanoseconds since the epoch; the chunk's first tick for a moment before it. */
    long ticksAt(long epochNanos) {
        return START_TICKS + Math.max(0, epochNanos - startNanos);
    }

    /** Adds an event (from {@link #event}) to be written {@code times} times. */
    void add(JfrBuffer event, long times) {
        if (times > 0) {
            events.add(event);
            repeats.add(times);
        }
    }

    /** Writes the chunk with this writer's events and the given constant pools; leaves {@code out} open. */
    void write(JfrConstantPools pools, OutputStream out) throws IOException {
        JfrBuffer metadata = new JfrBuffer(JfrConstantPools.MAX_BYTES).putVarLong(METADATA_EVENT);
        JfrMetadata.writeBody(metadata, START_TICKS);
        JfrBuffer checkpoint = new JfrBuffer(JfrConstantPools.MAX_BYTES).putVarLong(CHECKPOINT_EVENT);
        pools.writeCheckpointBody(checkpoint, START_TICKS);

        byte[] framedMetadata = framed(metadata);
        byte[] framedCheckpoint = framed(checkpoint);
        List<byte[]> framedEvents = new ArrayList<>(events.size());
        long metadataOffset = HEADER_SIZE;
        long checkpointOffset = metadataOffset + framedMetadata.length;
        long size = checkpointOffset + framedCheckpoint.length;
        for (int i = 0; i < events.size(); i++) {
            framedEvents.add(framed(events.get(i)));
            size = Math.addExact(size, Math.multiplyExact((long) framedEvents.get(i).length, repeats.get(i)));
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
        for (int i = 0; i < framedEvents.size(); i++) {
            byte[] event = framedEvents.get(i);
            for (long n = repeats.get(i); n > 0; n--) {
                buffered.write(event);
            }
        }
        buffered.flush();
    }

    /** The event with its size in front; the size counts the varint that holds it, so it is the least that does. */
    private static byte[] framed(JfrBuffer body) throws IOException {
        int n = 1;
        while (JfrBuffer.varLongSize((long) body.size() + n) != n) {
            n++;
        }
        return new JfrBuffer(Integer.MAX_VALUE - 8).putVarLong((long) body.size() + n).put(body).toByteArray();
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
