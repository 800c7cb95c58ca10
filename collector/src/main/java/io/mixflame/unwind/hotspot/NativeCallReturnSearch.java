package io.mixflame.unwind.hotspot;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.hotspot.BlobKind;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * Finds, in the stack copied with a sample, where a thread's call out of Java into a native method will return: the
 * first word above a broken walk that is a return address into a native wrapper (the compiled code that calls a Java
 * {@code native} method's C function). The JVM's own record of that frame (the frame anchor) is read after the
 * sample, and a thread that makes many short native calls has left it behind by then; the sample's stack has not.
 *
 * <p>Only the words between the walk's break and the copy's end are looked at: those are the live frames of the
 * native code the wrapper called (nothing dead lies above a thread's sp), and code of a native wrapper is what none
 * of those frames holds but the return address. A word counts only when the bytes before it are a call instruction.
 * Allocates nothing; one per walking thread.
 */
final class NativeCallReturnSearch {
    /** How far above the break to look: deeper native stacks than this end as they did. */
    private static final int MOST_BYTES = 64 * 1024;
    private static final int CHECKED = 1024;

    private final LongPredicate inCodeCache;
    private final LongFunction<CodeBlobInfo> blobAt;
    /** Whether a code address follows a call instruction, by address: the wrappers' call sites are few. */
    private final LongKeyedCache<Boolean> afterCall = new LongKeyedCache<>(CHECKED);
    private final byte[] code = new byte[5];

    /**
     * @param inCodeCache whether an address is in the JVM's code cache (cheap: no read)
     * @param blobAt      the code blob holding an address, or null
     */
    NativeCallReturnSearch(LongPredicate inCodeCache, LongFunction<CodeBlobInfo> blobAt) {
        this.inCodeCache = inCodeCache;
        this.blobAt = blobAt;
    }

    /**
     * The address of the stack slot holding the return address into a native wrapper, at or above {@code from}, or
     * 0 when there is none in the copy.
     */
    long find(StackMemory memory, StackBounds bounds, long from) {
        long end = Math.min(memory.copyEnd(), Math.min(bounds.high(), from + MOST_BYTES));
        for (long slot = (from + 7) & ~7L; slot + 8 <= end; slot += 8) {
            long value;
            try {
                value = memory.readLong(slot);
            } catch (MemoryReadException e) {
                return 0;
            }
            if (!inCodeCache.test(value)) {
                continue;
            }
            CodeBlobInfo blob = blobAt.apply(value);
            if (blob != null && blob.kind() == BlobKind.NATIVE_WRAPPER && value > blob.codeBegin()
                    && value < blob.codeEnd() && followsCall(memory, value)) {
                return slot;
            }
        }
        return 0;
    }

    /** Whether the instruction before {@code pc} is a call: {@code call rel32}, or {@code call reg} (REX or not). */
    private boolean followsCall(StackMemory memory, long pc) {
        Boolean known = afterCall.get(pc);
        if (known != null) {
            return known;
        }
        boolean call = memory.process().read(pc - 5, code, 0, 5) == 5
                && ((code[0] & 0xff) == 0xe8 || (code[3] & 0xff) == 0xff && (code[4] & 0xf8) == 0xd0);
        afterCall.put(pc, call);
        return call;
    }
}
