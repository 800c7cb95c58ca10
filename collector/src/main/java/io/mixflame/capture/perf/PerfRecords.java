package io.mixflame.capture.perf;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Reads the records of perf ring buffers for one capture: each sample parsed into one reused {@link RawSample} and
 * handed to the drain's consumer, the samples the kernel reported lost and the times it throttled an event counted,
 * and what else the capture asked the kernel for passed to its {@link Extras}. Both captures read their rings through
 * it, so that a record is read one way; the visitor of every drain, so that draining allocates nothing.
 */
final class PerfRecords implements PerfRingBuffer.RecordVisitor {
    static final int RECORD_LOST = 2;
    static final int RECORD_COMM = 3;
    static final int RECORD_THROTTLE = 5;
    static final int RECORD_SAMPLE = 9;
    static final int RECORD_SWITCH = 14;

    /** What a capture adds to the reading of its records. */
    interface Extras {
        /** Whether a sample parsed is handed over; one left out is counted by the capture as it says why. */
        boolean keeps(RawSample sample);

        /** The kernel lost records (a full ring buffer). */
        void lost();

        /** A record of a type other than a sample, a loss or a throttle. */
        void other(int type, ByteBuffer buffer, int offset, int length);
    }

    private final RawSample sample;
    /** The capture's additions; null for none. */
    private final Extras extras;
    private SampleRecordParser parser;
    /** Whether the drain under way may hand over one more sample; null: always. */
    private BooleanSupplier room;
    /** The consumer of the drain under way. */
    private Consumer<RawSample> consumer;
    private long samples;
    private long lost;
    private long throttled;
    private long malformed;

    /**
     * @param stackBytes the stack copy the samples carry at first ({@link #reserveStack} for larger ones)
     * @param extras     the capture's additions, or null
     */
    PerfRecords(int stackBytes, Extras extras) {
        this.sample = new RawSample(stackBytes);
        this.extras = extras;
    }

    /** Parses the samples as carrying kernel callchains or not, as the events were opened. */
    void kernelFrames(boolean kernel) {
        parser = new SampleRecordParser(kernel);
    }

    /** Makes room in the reused sample for copies of {@code bytes}, before events with such copies are read. */
    void reserveStack(int bytes) {
        sample.reserveStack(bytes);
    }

    /** Reads every record of {@code ring}, handing its samples to {@code into}. */
    void drain(PerfRingBuffer ring, Consumer<RawSample> into) {
        consumer = into;
        ring.drain(this);
        consumer = null;
    }

    /** Reads every record of the rings (null entries skipped), handing their samples to {@code into}. */
    void drain(PerfRingBuffer[] rings, Consumer<RawSample> into) {
        drain(rings, into, null);
    }

    /**
     * Reads the records of the rings (null entries skipped), handing their samples to {@code into} while
     * {@code room} (null: always) says it takes one more; the rest stay in the rings.
     *
     * @return whether every ring was read to its end ({@code room} never said no)
     */
    boolean drain(PerfRingBuffer[] rings, Consumer<RawSample> into, BooleanSupplier room) {
        consumer = into;
        this.room = room;
        try {
            for (PerfRingBuffer ring : rings) {
                if (ring != null) {
                    ring.drain(this);
                }
            }
            return takesMore();
        } finally {
            consumer = null;
            this.room = null;
        }
    }

    @Override
    public boolean takesMore() {
        return room == null || room.getAsBoolean();
    }

    @Override
    public void record(int type, ByteBuffer buffer, int offset, int length) {
        switch (type) {
            case RECORD_SAMPLE -> {
                if (!parser.parse(buffer, offset, length, sample)) {
                    malformed++;
                } else if (extras == null || extras.keeps(sample)) {
                    samples++;
                    consumer.accept(sample);
                }
            }
            case RECORD_LOST -> {
                if (length >= 24) {
                    lost += buffer.getLong(offset + 16);
                    if (extras != null) {
                        extras.lost();
                    }
                }
            }
            case RECORD_THROTTLE -> throttled++;
            default -> {
                if (extras != null) {
                    extras.other(type, buffer, offset, length);
                }
            }
        }
    }

    /** Samples handed over so far. */
    long samples() {
        return samples;
    }

    /** Samples the kernel reported lost. */
    long lost() {
        return lost;
    }

    /** Times the kernel throttled an event. */
    long throttled() {
        return throttled;
    }

    /** Records that did not have the expected shape. */
    long malformed() {
        return malformed;
    }
}
