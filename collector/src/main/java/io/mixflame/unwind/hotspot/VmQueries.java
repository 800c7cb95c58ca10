package io.mixflame.unwind.hotspot;

import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * A JVM's answers the resumption from a thread's last Java frame asks for: a class rather than three method
 * references, each of which is a class the JVM spins in the service's start-up.
 */
final class VmQueries implements LongPredicate, LongFunction<CodeBlobInfo>, LastJavaFrameResume.Anchors {
    private final HotSpotVm vm;

    VmQueries(HotSpotVm vm) {
        this.vm = vm;
    }

    @Override
    public boolean test(long pc) {
        return vm.inCodeCache(pc);
    }

    @Override
    public CodeBlobInfo apply(long pc) {
        return vm.blobAt(pc);
    }

    @Override
    public boolean read(int tid, long[] out) {
        return vm.lastJavaFrame(tid, out);
    }
}
