package io.mixflame.unwind.pe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.image.pe.LoadedPeImage;
import io.mixflame.image.pe.LoadedPeImages;
import io.mixflame.image.pe.PeFile;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.UnwindInfoBytes;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Whole-stack walks over a synthetic image: a leaf without unwind data at 0x1000, a function that pushes rbx and
 * allocates 0x20 bytes at 0x1100, a root that allocates 0x28 at 0x1200 (and one with unreadable unwind data at
 * 0x1300), on a stack whose slots the tests lay out and corrupt.
 */
class PeStackWalkerTest {
    private static final long BASE = 0x1_4000_0000L;
    private static final long STACK_LOW = 0x20_0000L;
    private static final long STACK_HIGH = 0x24_0000L;
    private static final int WIN_RBX = 3;

    private static final long LEAF_PC = BASE + 0x1010;
    private static final long PUSH_ALLOC_PC = BASE + 0x1150;
    private static final long ROOT_PC = BASE + 0x1250;
    private static final long BAD_INFO_PC = BASE + 0x1350;
    private static final long GARBAGE = 0x4141_4141_4141_4141L;

    private static final long S0 = STACK_HIGH - 0x1000;
    /** rsp of the push/alloc frame: the leaf's return address popped. */
    private static final long S1 = S0 + 8;
    /** rsp of the root frame: rbx, 0x20 bytes and the return address popped. */
    private static final long S2 = S1 + 0x20 + 8 + 8;
    private static final long ROOT_RETURN_SLOT = S2 + 0x28;

    private final FakeProcessMemory memory = new FakeProcessMemory().map(STACK_LOW, STACK_HIGH - STACK_LOW);
    private final LoadedPeImages images = new LoadedPeImages(List.of(image()));

    private static LoadedPeImage image() {
        byte[] text = new byte[0x400];
        Arrays.fill(text, (byte) 0x90); // nops: no pc below is taken for an epilog
        PeImageBuilder builder = new PeImageBuilder().imageBase(BASE);
        builder.section(".text", text);
        builder.unwindTables(List.of(
                new PeImageBuilder.Function(0x1100, 0x1200,
                        new UnwindInfoBytes().prolog(5).allocSmall(5, 0x20).push(1, WIN_RBX).toByteArray()),
                new PeImageBuilder.Function(0x1200, 0x1300,
                        new UnwindInfoBytes().prolog(4).allocSmall(4, 0x28).toByteArray()),
                new PeImageBuilder.Function(0x1300, 0x1400, new UnwindInfoBytes().version(5).toByteArray())));
        PeFile file = PeFile.parse(builder.buildBuffer());
        return new LoadedPeImage("test.dll", BASE, file.sizeOfImage(), PeUnwindTable.read(file));
    }

    /** leaf → push/alloc → root, whose return address is 0. */
    private void layOutThreeFrames() {
        memory.writeLong(S0, PUSH_ALLOC_PC);
        memory.writeLong(S1 + 0x20, 0xb0b);
        memory.writeLong(S1 + 0x28, ROOT_PC);
        memory.writeLong(ROOT_RETURN_SLOT, 0);
    }

    private static Registers at(long pc, long sp) {
        Registers r = new Registers();
        r.set(Registers.RIP, pc);
        r.set(Registers.RSP, sp);
        return r;
    }

    private PeStackWalk walk(Registers start, long low, long high, int maxFrames) {
        return new PeStackWalker(images, maxFrames).walk(start, memory::readLong, new StackBounds(low, high));
    }

    private PeStackWalk walk(Registers start) {
        return walk(start, STACK_LOW, STACK_HIGH, 64);
    }

    @Test
    void walksFromALeafWithoutUnwindDataToTheZeroReturnAddress() {
        layOutThreeFrames();
        Registers start = at(LEAF_PC, S0);

        PeStackWalk walk = walk(start);

        assertThat(walk.end()).as(walk.detail()).isEqualTo(PeWalkEnd.END_OF_STACK);
        assertThat(walk.frames()).extracting(PeFrame::pc).containsExactly(LEAF_PC, PUSH_ALLOC_PC, ROOT_PC);
        assertThat(walk.frames()).extracting(PeFrame::sp).containsExactly(S0, S1, S2);
        assertThat(walk.frames()).extracting(f -> f.image().name()).containsOnly("test.dll");
        assertThat(start.pc()).as("the caller's registers are left alone").isEqualTo(LEAF_PC);
        assertThat(start.sp()).isEqualTo(S0);
    }

    @Test
    void aReturnAddressInNoImageEndsTheWalkWithoutAFrameForIt() {
        layOutThreeFrames();
        memory.writeLong(S1 + 0x28, GARBAGE);

        PeStackWalk walk = walk(at(LEAF_PC, S0));

        assertThat(walk.end()).isEqualTo(PeWalkEnd.NO_MODULE);
        assertThat(walk.detail()).contains("4141414141414141");
        assertThat(walk.frames()).extracting(PeFrame::pc).containsExactly(LEAF_PC, PUSH_ALLOC_PC);
    }

    @Test
    void aFirstPcInNoImageGivesNoFrames() {
        PeStackWalk walk = walk(at(GARBAGE, S0));

        assertThat(walk.end()).isEqualTo(PeWalkEnd.NO_MODULE);
        assertThat(walk.frames()).isEmpty();
    }

    @Test
    void slotsPastTheStackLimitAreNotRead() {
        layOutThreeFrames();
        // The root's return slot lies past this high limit, though the memory there is readable.
        PeStackWalk walk = walk(at(LEAF_PC, S0), STACK_LOW, ROOT_RETURN_SLOT, 64);

        assertThat(walk.end()).isEqualTo(PeWalkEnd.BAD_STACK);
        assertThat(walk.detail()).contains("outside the stack");
        assertThat(walk.frames()).extracting(PeFrame::pc).containsExactly(LEAF_PC, PUSH_ALLOC_PC, ROOT_PC);
    }

    @Test
    void aFirstRspOutsideTheStackIsABadStack() {
        layOutThreeFrames();

        PeStackWalk walk = walk(at(LEAF_PC, S0), S0 + 8, STACK_HIGH, 64);

        assertThat(walk.end()).isEqualTo(PeWalkEnd.BAD_STACK);
        assertThat(walk.frames()).extracting(PeFrame::pc).containsExactly(LEAF_PC);
    }

    @Test
    void unreadableUnwindDataEndsTheWalkAfterTheFrame() {
        memory.writeLong(S0, BAD_INFO_PC);

        PeStackWalk walk = walk(at(LEAF_PC, S0));

        assertThat(walk.end()).isEqualTo(PeWalkEnd.BAD_UNWIND_DATA);
        assertThat(walk.detail()).startsWith("test.dll: ").contains("version 5");
        assertThat(walk.frames()).extracting(PeFrame::pc).containsExactly(LEAF_PC, BAD_INFO_PC);
    }

    @Test
    void aDeepStackStopsAtTheFrameCapAndOnlyThere() {
        // The root calling itself 50 times: each frame returns into the root 0x30 bytes further up.
        int depth = 50;
        long sp = S0;
        for (int i = 0; i < depth; i++) {
            memory.writeLong(sp + 0x28, i == depth - 1 ? 0 : ROOT_PC);
            sp += 0x30;
        }

        PeStackWalk capped = walk(at(ROOT_PC, S0), STACK_LOW, STACK_HIGH, 10);
        PeStackWalk whole = walk(at(ROOT_PC, S0), STACK_LOW, STACK_HIGH, 100);

        assertThat(capped.end()).isEqualTo(PeWalkEnd.FRAME_CAP);
        assertThat(capped.frames()).hasSize(10);
        assertThat(whole.end()).isEqualTo(PeWalkEnd.END_OF_STACK);
        assertThat(whole.frames()).hasSize(depth);
    }

    @Test
    void garbageStacksEndInAMarkerWithOnlyFramesInsideTheImageAndTheStack() {
        Random random = new Random(20261124);
        long[] pcs = {LEAF_PC, PUSH_ALLOC_PC, ROOT_PC, BAD_INFO_PC, GARBAGE, 0, BASE + 0x1000, BASE + 0x1200};
        for (int round = 0; round < 500; round++) {
            for (long a = S0; a < S0 + 0x400; a += 8) {
                memory.writeLong(a, random.nextBoolean() ? pcs[random.nextInt(pcs.length)]
                        : S0 + 8L * random.nextInt(0x100) - 0x100);
            }
            long high = S0 + 0x400;
            PeStackWalk walk = walk(at(pcs[random.nextInt(4)], S0), STACK_LOW, high, 64);

            assertThat(walk.frames()).as("round %d", round).hasSizeLessThanOrEqualTo(64);
            for (PeFrame f : walk.frames()) {
                assertThat(f.image().contains(f.pc())).isTrue();
                assertThat(new StackBounds(STACK_LOW, high).contains(f.sp())).isTrue();
            }
            // Each caller's frame lies above its callee's: a garbage walk cannot go round in circles.
            long[] sps = walk.frames().stream().mapToLong(PeFrame::sp).toArray();
            for (int i = 1; i < sps.length; i++) {
                assertThat(sps[i]).as("round %d frame %d", round, i).isGreaterThan(sps[i - 1]);
            }
            assertThat(walk.detail()).isNotNull();
        }
    }

    @Test
    void aCapBelowOneIsRefused() {
        assertThatThrownBy(() -> new PeStackWalker(images, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
