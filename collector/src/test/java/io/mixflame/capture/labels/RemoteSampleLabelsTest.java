package io.mixflame.capture.labels;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.SampleSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A helper process's view of a JVM's labels: the log's directory and slots read through the process's memory (here
 * this process's own, as a helper reads another's), samples marked with set ids, and the JVM turning the ids back
 * into its labels as the samples arrive.
 */
class RemoteSampleLabelsTest {
    private static final Frame THREAD = Frame.thread("worker", 91);
    private static final Frame METHOD = Frame.java("app.Handler", "handle", FrameType.JIT_COMPILED);

    private final LabelRecorder recorder = new LabelRecorder(new LabelSets(64), new LabelLog(8), () -> 91);
    private final LinuxProcessMemory memory = new LinuxProcessMemory(ProcessHandle.current().pid());

    @AfterEach
    void close() {
        memory.close();
    }

    @Test
    void samplesReadFromOutsideCarryTheSetIdAndTheJvmMakesItsLabelsOfIt() {
        long directory = recorder.log().directory();
        long before = System.nanoTime();
        long token = recorder.enter(new String[] {"tenant", "acme", "endpoint", "/checkout"});
        long during = System.nanoTime();
        recorder.exit(token);
        long after = System.nanoTime();
        SampleLabeler remote = new RemoteLabelSource(directory).labeler(memory);

        assertThat(labelled(remote, before)).containsExactly("[worker tid=91]", "app/Handler.handle");
        List<String> marked = labelled(remote, during);
        assertThat(marked).hasSize(3);
        assertThat(marked.get(1)).startsWith("[labels=#");
        assertThat(labelled(remote, after)).containsExactly("[worker tid=91]", "app/Handler.handle");

        List<String> arrived = new ArrayList<>();
        SampleSink resolved = new SetIdResolvingSink(collect(arrived), recorder.sets());
        int depth = remote.label(91, during, new Frame[] {THREAD, METHOD}, 2, true);
        resolved.add(remote.frames(), depth, 1, 0);
        assertThat(arrived).containsExactly(
                "[worker tid=91];[endpoint=/checkout];[tenant=acme];app/Handler.handle");
    }

    @Test
    void aThreadThatGetsItsSlotAfterTheDirectoryWasMadeIsFoundToo() throws Exception {
        long directory = recorder.log().directory();
        SampleLabeler remote = new RemoteLabelSource(directory).labeler(memory);
        long first = System.nanoTime();
        assertThat(labelled(remote, first)).as("no thread has a slot yet").hasSize(2);

        recorder.enter("tenant", "acme");
        long reads = memory.systemReads();
        assertThat(labelled(remote, first + 1)).as("looked for again only after a while").hasSize(2);
        assertThat(memory.systemReads()).as("reads for a thread without a slot, so soon").isEqualTo(reads);
        long later = Math.max(System.nanoTime(), first + RemoteSampleLabels.DIRECTORY_RECHECK_NANOS);
        assertThat(labelled(remote, later).get(1)).startsWith("[labels=#");
    }

    /**
     * An engine looks up a drain's samples together, each thread's in a row: samples taken before the slot's copy
     * was read share it, and one taken after it reads the slot again, finding the changes made since.
     */
    @Test
    void samplesTakenBeforeTheCopyShareOneReadAndALaterSampleReadsAgain() {
        long directory = recorder.log().directory();
        long token = recorder.enter("phase", "a");
        long firstInA = System.nanoTime();
        long secondInA = System.nanoTime();
        SampleLabeler remote = new RemoteLabelSource(directory).labeler(memory);
        int a = remote.setAt(91, firstInA);
        assertThat(a).as("the set in force").isNotIn(LabelSets.NONE, LabelLog.UNKNOWN);
        long reads = memory.systemReads();
        assertThat(remote.setAt(91, secondInA)).isEqualTo(a);
        assertThat(memory.systemReads()).as("reads for a sample taken before the copy").isEqualTo(reads);

        recorder.exit(token);
        recorder.enter("phase", "b");
        int b = remote.setAt(91, System.nanoTime());
        assertThat(memory.systemReads()).as("reads for a sample taken after the copy").isGreaterThan(reads);
        assertThat(b).as("the set in force after the change").isNotIn(a, LabelSets.NONE, LabelLog.UNKNOWN);
        assertThat(remote.setAt(91, firstInA)).as("the set at the first sample's time, from the new copy")
                .isEqualTo(a);
    }

    @Test
    void aSetIdThatIsNotANumberArrivesAsNoLabels() {
        List<String> arrived = new ArrayList<>();
        SampleSink resolved = new SetIdResolvingSink(collect(arrived), recorder.sets());
        resolved.add(new Frame[] {THREAD, Frame.label("labels", "#x1"), METHOD}, 3, 1, 0);
        resolved.add(new Frame[] {THREAD, Frame.label("labels", "#"), METHOD}, 3, 1, 0);
        resolved.add(new Frame[] {Frame.label("tenant", "#1"), METHOD}, 2, 1, 0);
        assertThat(arrived).containsExactly("[worker tid=91];app/Handler.handle", "[worker tid=91];app/Handler.handle",
                "[tenant=#1];app/Handler.handle");
    }

    @Test
    void anAddressThatIsNotADirectoryGivesNoLabels() {
        recorder.enter("tenant", "acme");
        long[] notADirectory = new long[16];
        SampleLabeler remote = new RemoteLabelSource(System.identityHashCode(notADirectory)).labeler(memory);
        assertThat(labelled(remote, System.nanoTime())).containsExactly("[worker tid=91]", "app/Handler.handle");
    }

    /**
     * A directory whose count of slots is garbage is read no further than the bound: no buffer of gigabytes. The
     * fake directory's entries up to the bound are zero, so what the labeler reads is known (memory past a short
     * buffer may hold a freed log's entries, even one naming this thread's slot).
     */
    @Test
    void aDirectoryClaimingBillionsOfSlotsIsReadOnlyUpToTheBound() {
        java.nio.ByteBuffer fake = java.nio.ByteBuffer.allocateDirect(LabelLog.DIRECTORY_HEADER
                + RemoteSampleLabels.MAX_DIRECTORY_ENTRIES * LabelLog.DIRECTORY_ENTRY)
                .order(java.nio.ByteOrder.nativeOrder());
        fake.putLong(0, LabelLog.DIRECTORY_MAGIC);
        fake.putLong(8, 1);
        fake.putLong(16, 1L << 40);
        long address = com.sun.jna.Pointer.nativeValue(com.sun.jna.Native.getDirectBufferPointer(fake));
        java.lang.management.BufferPoolMXBean direct = java.lang.management.ManagementFactory.getPlatformMXBeans(
                java.lang.management.BufferPoolMXBean.class).stream().filter(b -> b.getName().equals("direct"))
                .findFirst().orElseThrow();
        long before = direct.getMemoryUsed();
        SampleLabeler remote = new RemoteLabelSource(address).labeler(memory);
        assertThat(remote.setAt(91, System.nanoTime())).isEqualTo(LabelSets.NONE);
        assertThat(direct.getMemoryUsed() - before).as("direct memory the labeler took")
                .isLessThanOrEqualTo((long) RemoteSampleLabels.MAX_DIRECTORY_ENTRIES * LabelLog.DIRECTORY_ENTRY
                        + 2 * LabelLog.SLOT);
        assertThat(fake.getLong(0)).isEqualTo(LabelLog.DIRECTORY_MAGIC);
    }

    private static List<String> labelled(SampleLabeler labeler, long time) {
        int depth = labeler.label(91, time, new Frame[] {THREAD, METHOD}, 2, true);
        return Arrays.stream(labeler.frames(), 0, depth).map(Frame::name).toList();
    }

    private static SampleSink collect(List<String> into) {
        return (rootFirst, depth, samples, weightNanos) -> {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < depth; i++) {
                line.append(i == 0 ? "" : ";").append(rootFirst[i].name());
            }
            into.add(line.toString());
        };
    }
}
