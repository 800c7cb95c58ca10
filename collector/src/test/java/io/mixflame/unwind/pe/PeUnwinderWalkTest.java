package io.mixflame.unwind.pe;

import static io.mixflame.unwind.pe.PeProcessFixture.BASE;
import static io.mixflame.unwind.pe.PeProcessFixture.STACK_HIGH;
import static io.mixflame.unwind.pe.PeProcessFixture.STACK_LOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.windows.PeModuleImage;
import io.mixflame.process.MemoryMapping;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.UnwindInfoBytes;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.WalkedStack;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole walks of x64 Windows stacks through the production chain ({@link io.mixflame.unwind.chain.UnwinderChain}'s
 * unwinders in {@link io.mixflame.unwind.NativeStackWalker}), where {@link PeUnwinder} unwinds every frame of a
 * synthetic image: a leaf without unwind data at 0x1000, a function that pushes rbx and allocates 0x20 bytes at
 * 0x1100, a root that allocates 0x28 at 0x1200 (whose first byte is a {@code ret}) and one with unreadable unwind
 * data at 0x1300, on a stack whose slots the tests lay out and corrupt.
 */
class PeUnwinderWalkTest {
    private static final int WIN_RBX = 3;

    private static final long LEAF_PC = BASE + 0x1010;
    private static final long PUSH_ALLOC_PC = BASE + 0x1150;
    /** One past the push/alloc function's last byte: where a call that ends it returns to. */
    private static final long PUSH_ALLOC_END = BASE + 0x1200;
    private static final long ROOT_PC = BASE + 0x1250;
    private static final long BAD_INFO_PC = BASE + 0x1350;
    private static final long GARBAGE = 0x4141_4141_4141_4141L;

    private static final long S0 = STACK_HIGH - 0x1000;
    /** rsp of the push/alloc frame: the leaf's return address popped. */
    private static final long S1 = S0 + 8;
    /** rsp of the root frame: 0x20 bytes, rbx and the return address popped. */
    private static final long S2 = S1 + 0x20 + 8 + 8;
    private static final long ROOT_RETURN_SLOT = S2 + 0x28;

    @TempDir
    Path dir;
    private PeProcessFixture process;

    @BeforeEach
    void loadTheImage() {
        byte[] text = new byte[0x400];
        Arrays.fill(text, (byte) 0x90); // nops: no pc below is taken for an epilog...
        text[0x200] = (byte) 0xc3; // ...but the root's first byte, which an epilog check at its start would take
        process = new PeProcessFixture(dir, text, List.of(
                new PeImageBuilder.Function(0x1100, 0x1200,
                        new UnwindInfoBytes().prolog(5).allocSmall(5, 0x20).push(1, WIN_RBX).toByteArray()),
                new PeImageBuilder.Function(0x1200, 0x1300,
                        new UnwindInfoBytes().prolog(4).allocSmall(4, 0x28).toByteArray()),
                new PeImageBuilder.Function(0x1300, 0x1400, new UnwindInfoBytes().version(5).toByteArray())));
    }

    /** leaf → push/alloc (returned to at {@code pushAllocReturn}) → root, whose return address is 0. */
    private void layOutThreeFrames(long pushAllocReturn) {
        process.stack(S0, pushAllocReturn);
        process.stack(S1 + 0x20, 0xb0b, ROOT_PC);
        process.stack(ROOT_RETURN_SLOT, 0);
    }

    private static List<Long> pcs(WalkedStack s) {
        List<Long> list = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            list.add(s.pc(i));
        }
        return list;
    }

    private static List<Long> sps(WalkedStack s) {
        List<Long> list = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            list.add(s.sp(i));
        }
        return list;
    }

    /** Asserts the walk ends after its code frames in one marker of {@code kind}. */
    private static void assertEndsInMarker(WalkedStack s, byte kind) {
        assertThat(s.kind(s.size() - 1)).isEqualTo(kind);
        for (int i = 0; i < s.size() - 1; i++) {
            assertThat(s.isCode(i)).as("frame %d", i).isTrue();
        }
    }

    @Test
    void walksFromALeafWithoutUnwindDataToTheZeroReturnAddress() {
        layOutThreeFrames(PUSH_ALLOC_PC);

        WalkedStack s = process.walk(LEAF_PC, S0);

        assertThat(s.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(pcs(s)).containsExactly(LEAF_PC, PUSH_ALLOC_PC, ROOT_PC);
        assertThat(sps(s)).containsExactly(S0, S1, S2);
    }

    @Test
    void aReturnAddressOnePastItsFunctionIsUnwoundByThatFunction() {
        // A call ending its function returns to the next function's first byte: the caller is found at pc - 1,
        // with all of its prolog undone, and the next function's code (a ret here) is not taken for its epilog.
        layOutThreeFrames(PUSH_ALLOC_END);

        WalkedStack s = process.walk(LEAF_PC, S0);

        assertThat(s.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(pcs(s)).containsExactly(LEAF_PC, PUSH_ALLOC_END, ROOT_PC);
        assertThat(sps(s)).containsExactly(S0, S1, S2);
    }

    @Test
    void aReturnAddressInNoModuleEndsTheWalkInABadPcMarker() {
        layOutThreeFrames(PUSH_ALLOC_PC);
        process.stack(S1 + 0x28, GARBAGE);

        WalkedStack s = process.walk(LEAF_PC, S0);

        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_PC);
        assertThat(pcs(s)).containsExactly(LEAF_PC, PUSH_ALLOC_PC, 0L);
        assertEndsInMarker(s, WalkedStack.UNKNOWN);
    }

    @Test
    void aFirstPcInNoModuleIsLeftToTheNextUnwinder() {
        // Without rbp, frame pointers cannot take it either: the pc stays as the sample's only frame.
        WalkedStack s = process.walk(GARBAGE, S0);

        assertThat(s.end()).isEqualTo(WalkedStack.End.NO_UNWINDER);
        assertThat(pcs(s)).containsExactly(GARBAGE, 0L);
        assertEndsInMarker(s, WalkedStack.UNKNOWN);
    }

    @Test
    void aModuleWithoutPeUnwindDataIsDeclined() {
        LoadedModule unreadable = new LoadedModule(new PeModuleImage(dir.resolve("missing.dll").toString()), BASE,
                BASE + 0x10000, BASE);
        UnwindContext context = new UnwindContext(new StackMemory(new FakeProcessMemory()), new FixedModuleMap(
                new ModuleSnapshot(List.of(new MemoryMapping(BASE, BASE + 0x10000, true, false, true, 0, 0, "")),
                        List.of(unreadable)), "jvm.dll"));
        context.registers().set(X64Registers.RIP, LEAF_PC);

        assertThat(new PeUnwinder().canUnwindFrom(context)).isFalse();
    }

    @Test
    void slotsPastTheStackLimitAreNotRead() {
        layOutThreeFrames(PUSH_ALLOC_PC);
        // The root's return slot lies past this high limit, though the memory there is readable.
        WalkedStack s = process.walk(LEAF_PC, S0, new StackBounds(STACK_LOW, ROOT_RETURN_SLOT), 64);

        assertThat(s.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);
        assertThat(pcs(s)).containsExactly(LEAF_PC, PUSH_ALLOC_PC, ROOT_PC, 0L);
        assertEndsInMarker(s, WalkedStack.UNKNOWN);
    }

    @Test
    void aFirstRspOutsideTheStackFailsTheFirstUnwind() {
        layOutThreeFrames(PUSH_ALLOC_PC);

        WalkedStack s = process.walk(LEAF_PC, S0, new StackBounds(S0 + 8, STACK_HIGH), 64);

        assertThat(s.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);
        assertThat(pcs(s)).containsExactly(LEAF_PC, 0L);
    }

    @Test
    void unreadableUnwindDataEndsTheWalkAfterTheFrame() {
        process.stack(S0, BAD_INFO_PC);

        WalkedStack s = process.walk(LEAF_PC, S0);

        assertThat(s.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);
        assertThat(pcs(s)).containsExactly(LEAF_PC, BAD_INFO_PC, 0L);
        assertEndsInMarker(s, WalkedStack.UNKNOWN);
    }

    @Test
    void aDeepStackStopsAtTheDepthLimitAndOnlyThere() {
        // The root calling itself 50 times: each frame returns into the root 0x30 bytes further up.
        int depth = 50;
        long sp = S0;
        for (int i = 0; i < depth; i++) {
            process.stack(sp + 0x28, i == depth - 1 ? 0 : ROOT_PC);
            sp += 0x30;
        }
        StackBounds bounds = new StackBounds(STACK_LOW, STACK_HIGH);

        WalkedStack capped = process.walk(ROOT_PC, S0, bounds, 10);
        WalkedStack whole = process.walk(ROOT_PC, S0, bounds, 100);

        assertThat(capped.end()).isEqualTo(WalkedStack.End.DEPTH_LIMIT);
        assertThat(capped.size()).as("10 frames and the marker").isEqualTo(11);
        assertEndsInMarker(capped, WalkedStack.TRUNCATED);
        assertThat(whole.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(whole.size()).isEqualTo(depth);
    }

    @Test
    void garbageStacksEndInAMarkerWithOnlyFramesInsideTheImageAndTheStack() {
        Random random = new Random(20261124);
        long[] pcs = {LEAF_PC, PUSH_ALLOC_PC, ROOT_PC, BAD_INFO_PC, PUSH_ALLOC_END, GARBAGE, 0, BASE + 0x1000};
        long high = S0 + 0x400;
        StackBounds bounds = new StackBounds(STACK_LOW, high);
        for (int round = 0; round < 500; round++) {
            for (long a = S0; a < high; a += 8) {
                process.stack(a, random.nextBoolean() ? pcs[random.nextInt(pcs.length)]
                        : S0 + 8L * random.nextInt(0x100) - 0x100);
            }

            WalkedStack s = process.walk(pcs[random.nextInt(4)], S0, bounds, 64);

            assertThat(s.size()).as("round %d", round).isLessThanOrEqualTo(65);
            int frames = s.end() == WalkedStack.End.COMPLETED ? s.size() : s.size() - 1;
            assertThat(s.isCode(s.size() - 1)).as("round %d: %s", round, s.end())
                    .isEqualTo(s.end() == WalkedStack.End.COMPLETED);
            for (int i = 0; i < frames; i++) {
                assertThat(s.pc(i) - BASE).as("round %d frame %d", round, i).isBetween(0x1000L, 0x1400L);
                assertThat(bounds.contains(s.sp(i))).as("round %d frame %d", round, i).isTrue();
                // Each caller's frame lies above its callee's: a garbage walk cannot go round in circles.
                if (i > 0) {
                    assertThat(s.sp(i)).as("round %d frame %d", round, i).isGreaterThan(s.sp(i - 1));
                }
            }
        }
    }
}
