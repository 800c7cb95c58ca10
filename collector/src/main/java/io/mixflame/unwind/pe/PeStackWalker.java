package io.mixflame.unwind.pe;

import io.mixflame.image.pe.LoadedPeImage;
import io.mixflame.image.pe.LoadedPeImages;
import io.mixflame.image.pe.PeFormatException;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Walks a whole x64 Windows stack through PE images, as StackWalk64 does with the images' function tables: from a
 * thread's registers, {@link PeUnwindStep} after {@link PeUnwindStep}, each with the unwind data of the image
 * holding the pc, until a return address of 0. It reports only frames it can vouch for: a pc outside every image,
 * a step that fails its stack checks or unreadable unwind data ends the walk with a {@link PeWalkEnd} saying so,
 * and the frame count is bounded, so garbage on the stack yields a short walk and a reason, never garbage frames.
 */
public final class PeStackWalker {
    private final LoadedPeImages images;
    private final int maxFrames;

    /**
     * @param images    the process's loaded images
     * @param maxFrames the most frames one walk returns (at least 1)
     */
    public PeStackWalker(LoadedPeImages images, int maxFrames) {
        if (maxFrames < 1) {
            throw new IllegalArgumentException("maxFrames " + maxFrames);
        }
        this.images = images;
        this.maxFrames = maxFrames;
    }

    /**
     * Walks one stack.
     *
     * @param start  the innermost frame's registers: rip and rsp at least (unchanged by the walk)
     * @param memory reads the stack and the code at each pc
     * @param limits the stack's {@code [low, high)}; nothing outside is read as stack
     */
    public PeStackWalk walk(Registers start, UnwindMemory memory, StackBounds limits) {
        PeUnwindStep step = new PeUnwindStep(memory, limits);
        Registers regs = new Registers();
        regs.copyFrom(start);
        List<PeFrame> frames = new ArrayList<>();
        while (frames.size() < maxFrames) {
            long pc = regs.pc();
            Optional<LoadedPeImage> found = images.at(pc);
            if (found.isEmpty()) {
                return new PeStackWalk(frames, PeWalkEnd.NO_MODULE, "pc 0x" + Long.toHexString(pc) + " in no image");
            }
            LoadedPeImage image = found.get();
            frames.add(new PeFrame(pc, regs.sp(), image));
            PeUnwindTable table = image.unwindTable();
            RuntimeFunction entry;
            UnwindInfo info;
            try {
                // The return address itself (not pc - 1) picks the caller's function, as Windows' unwinders do:
                // compilers for Windows put an instruction after a call that would end a function, to keep it inside.
                entry = table.find(pc - image.base()).orElse(null);
                info = entry == null ? null : table.unwindInfo(entry);
            } catch (PeFormatException e) {
                return new PeStackWalk(frames, PeWalkEnd.BAD_UNWIND_DATA, image.name() + ": " + e.getMessage());
            }
            PeUnwindResult result = step.unwind(image.base(), entry, info, regs);
            switch (result.status()) {
                case COMPLETED -> {
                    return new PeStackWalk(frames, PeWalkEnd.END_OF_STACK, "");
                }
                case FAILED -> {
                    return new PeStackWalk(frames, PeWalkEnd.BAD_STACK, result.failure());
                }
                case UNWOUND -> {
                    // on to the caller
                }
            }
        }
        return new PeStackWalk(frames, PeWalkEnd.FRAME_CAP, maxFrames + " frames");
    }
}
