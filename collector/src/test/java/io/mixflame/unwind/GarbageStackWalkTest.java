package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.SyntheticModuleMap;
import io.mixflame.testsupport.CfiInstructions;
import io.mixflame.testsupport.EhFrameBuilder;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.LittleEndianWriter;
import io.mixflame.testsupport.UnwindInfoImage;
import io.mixflame.unwind.dwarf.DwarfUnwinder;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Walks over stacks of random words, biased towards values that look like code and stack addresses so that the
 * walks get somewhere: whatever the stack holds, a walk ends with a marker or completes, within its depth limit,
 * and every frame after the first passed the walker's checks. The seed is fixed: a failure repeats.
 */
class GarbageStackWalkTest {
    private static final long SEED = 0x5eed_14L;
    private static final int WALKS = 1000;
    private static final int MAX_DEPTH = 48;

    private static final long CODE = 0x40_0000;
    private static final long JIT = 0x60_0000;
    private static final long MODULE = 0x7f00_0000_0000L;
    private static final long CODE_SIZE = 0x10000;
    private static final long STACK_LOW = 0x7ffd_0000_0000L;
    private static final long STACK_HIGH = STACK_LOW + 0x4000;
    /** Another writable mapping: where a signal frame may move the walk (an alternate signal stack). */
    private static final long OTHER = 0x7ffe_0000_0000L;
    private static final long OTHER_HIGH = OTHER + 0x1000;

    private final Random random = new Random(SEED);
    private final FakeProcessMemory memory = new FakeProcessMemory();
    private final ModuleMap modules = new SyntheticModuleMap()
            .anonymousCode(CODE, CODE + CODE_SIZE)
            .anonymousCode(JIT, JIT + CODE_SIZE)
            .module("libgarbage.so", MODULE, MODULE + CODE_SIZE, MODULE, UnwindInfoImage.indexed(moduleCfi()))
            .readWrite(STACK_LOW, STACK_HIGH)
            .readWrite(OTHER, OTHER_HIGH)
            .build();
    /** Half the generated code has frames of 12 bytes, which misalign the stack: the walker must stop there. */
    private final NativeStackWalker walker = new NativeStackWalker(List.of(
            new FixedFrameUnwinder(JIT, JIT + CODE_SIZE / 2, 24),
            new FixedFrameUnwinder(JIT + CODE_SIZE / 2, JIT + CODE_SIZE, 12),
            new DwarfUnwinder(), new FramePointerUnwinder()),
            MAX_DEPTH);

    /** Rules of every kind the DWARF unwinder follows; the last part of the module has none. */
    private static EhFrameBuilder moduleCfi() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int cie = eh.standardCie();
        eh.fde(cie, 0x0000, 0x4000, new CfiInstructions()
                .advanceLoc(1).defCfaOffset(16).offset(X64Registers.RBP, 2).advanceLoc(3).defCfaRegister(X64Registers.RBP));
        eh.fde(cie, 0x4000, 0x4000, new CfiInstructions().advanceLoc(4).defCfaOffset(0x48));
        eh.fde(cie, 0x8000, 0x1000, new CfiInstructions().undefined(X64Registers.RIP));
        eh.fde(cie, 0xa000, 0x1000, new CfiInstructions()
                .defCfaExpression(new byte[] {0x77, 0x08, (byte) 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22}));
        int signal = eh.cie("zRS", EhFrameBuilder.PCREL_SDATA4, 1, -8, X64Registers.RIP,
                new CfiInstructions().defCfa(X64Registers.RSP, 8).offset(X64Registers.RIP, 1));
        eh.fde(signal, 0x9000, 0x1000, new CfiInstructions()
                .defCfaExpression(new byte[] {0x77, 0x10, 0x06}) // CFA = [rsp + 16]: anywhere the stack says
                .expression(X64Registers.RBP, new byte[] {0x77, 0x18})); // rbp saved at rsp + 24
        return eh;
    }

    @Test
    void everyWalkOverGarbageEndsWithinItsDepthLimitAfterCheckedFramesOnly() {
        // Code bytes are garbage too: the frame pointer search reads them looking for call instructions.
        fill(MODULE, CODE_SIZE);
        Map<WalkedStack.End, Integer> ends = new EnumMap<>(WalkedStack.End.class);
        int longest = 0;
        for (int walk = 0; walk < WALKS; walk++) {
            fill(STACK_LOW, STACK_HIGH - STACK_LOW);
            fill(OTHER, OTHER_HIGH - OTHER);
            UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
            Registers r = context.registers();
            r.set(X64Registers.RIP, codeAddress());
            r.set(X64Registers.RSP, STACK_LOW + (random.nextInt((int) (STACK_HIGH - STACK_LOW) / 8) * 8L));
            if (random.nextInt(3) > 0) {
                r.set(X64Registers.RBP, word());
            }
            WalkedStack out = new WalkedStack();

            walker.walk(context, out);

            checkShape(out, walk);
            ends.merge(out.end(), 1, Integer::sum);
            longest = Math.max(longest, out.size());
        }
        // The walks must have gone somewhere for the checks above to mean anything.
        assertThat(ends).containsKeys(WalkedStack.End.COMPLETED, WalkedStack.End.BAD_STACK, WalkedStack.End.BAD_PC,
                WalkedStack.End.UNWIND_FAILED);
        assertThat(longest).isGreaterThanOrEqualTo(5);
    }

    private static void checkShape(WalkedStack out, int walk) {
        String which = "walk " + walk;
        assertThat(out.size()).as(which).isBetween(1, MAX_DEPTH + 1);
        int last = out.size() - 1;
        for (int i = 0; i < last; i++) {
            assertThat(out.isCode(i)).as(which + " frame " + i).isTrue();
        }
        switch (out.end()) {
            case COMPLETED -> assertThat(out.isCode(last)).as(which).isTrue();
            case DEPTH_LIMIT -> {
                assertThat(out.kind(last)).as(which).isEqualTo(WalkedStack.TRUNCATED);
                assertThat(out.size()).as(which).isEqualTo(MAX_DEPTH + 1);
            }
            default -> assertThat(out.kind(last)).as(which).isEqualTo(WalkedStack.UNKNOWN);
        }
        // Only a signal frame may move the walk to another region, or keep its sp from growing.
        boolean onStack = true;
        for (int i = 1; i <= last && out.isCode(i); i++) {
            String frame = which + " frame " + i;
            long sp = out.sp(i);
            if (out.isSignalFrame(i - 1)) {
                onStack = inStack(sp);
            } else {
                assertThat(sp).as(frame).isGreaterThan(out.sp(i - 1));
            }
            assertThat(onStack ? inStack(sp) : sp >= OTHER && sp < OTHER_HIGH).as(frame + " in its region").isTrue();
            assertThat(sp & 7).as(frame).isZero();
            assertThat(isCode(out.pc(i))).as(frame).isTrue();
        }
    }

    private static boolean inStack(long sp) {
        return sp >= STACK_LOW && sp < STACK_HIGH;
    }

    private static boolean isCode(long pc) {
        return pc >= CODE && pc < CODE + CODE_SIZE || pc >= JIT && pc < JIT + CODE_SIZE
                || pc >= MODULE && pc < MODULE + CODE_SIZE;
    }

    /**
     * Fills memory with pairs of words. Some pairs look like frame records (a saved rbp higher up, then a return
     * address), some like records that loop or lead out of the stack, and some hold a return address 4 bytes off
     * (where a frame of 12 bytes finds it), so that walks get past a few frames and meet every check.
     */
    private void fill(long start, long length) {
        LittleEndianWriter words = new LittleEndianWriter();
        for (long a = start; a < start + length; a += 16) {
            long end = start + length;
            switch (random.nextInt(8)) {
                case 0, 1, 2 -> words.u64(higherSlot(a, end)).u64(codeAddress());
                case 3 -> words.u64(a).u64(codeAddress());
                case 4 -> words.u64(OTHER + random.nextInt((int) (OTHER_HIGH - OTHER) / 8) * 8L).u64(codeAddress());
                case 5 -> {
                    long code = codeAddress();
                    words.u32(random.nextInt()).u32(code).u32(code >>> 32).u32(random.nextInt());
                }
                default -> words.u64(word()).u64(word());
            }
        }
        memory.write(start, words.toByteArray());
    }

    /** An aligned address a little above {@code a} and below {@code end}, or {@code a} at the very top. */
    private long higherSlot(long a, long end) {
        return a + 16 >= end ? a : a + 16 + random.nextInt((int) Math.min(0x200, end - a - 16) / 8) * 8L;
    }

    /** A random word: mostly code or stack addresses, aligned or not, and some zeros and noise. */
    private long word() {
        return switch (random.nextInt(10)) {
            case 0, 1, 2 -> codeAddress();
            case 3, 4 -> STACK_LOW + random.nextInt((int) (STACK_HIGH - STACK_LOW) / 8) * 8L;
            case 5 -> STACK_LOW + random.nextInt((int) (STACK_HIGH - STACK_LOW));
            case 6 -> OTHER + random.nextInt((int) (OTHER_HIGH - OTHER));
            case 7 -> 0;
            default -> random.nextLong();
        };
    }

    private long codeAddress() {
        long base = switch (random.nextInt(3)) {
            case 0 -> CODE;
            case 1 -> JIT;
            default -> MODULE;
        };
        return base + random.nextInt((int) CODE_SIZE);
    }
}
