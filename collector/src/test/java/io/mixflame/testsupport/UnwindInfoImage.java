package io.mixflame.testsupport;

import io.mixflame.image.elf.ElfFile;

/**
 * An ELF image whose only content is call frame information: the {@code .eh_frame} an {@link EhFrameBuilder}
 * wrote, with or without its {@code .eh_frame_hdr} index (the profiler reads a module differently in each case).
 */
public final class UnwindInfoImage {
    /** Where the images put {@code .eh_frame}; an {@link EhFrameBuilder} for them must be made with it. */
    public static final long EH_FRAME_ADDRESS = 0x20_0000;
    /** Where the images put {@code .eh_frame_hdr}. */
    public static final long EH_FRAME_HDR_ADDRESS = 0x1f_f000;

    private UnwindInfoImage() {
    }

    /** A builder for this image's {@code .eh_frame}. */
    public static EhFrameBuilder ehFrame() {
        return new EhFrameBuilder(EH_FRAME_ADDRESS);
    }

    /** Only {@code .eh_frame}: every FDE is interpreted at once. */
    public static ElfFile unindexed(EhFrameBuilder eh) {
        return new ElfImageBuilder().section(".eh_frame", EH_FRAME_ADDRESS, eh.bytes()).build();
    }

    /** {@code .eh_frame} and its index: FDEs are interpreted when first looked up. */
    public static ElfFile indexed(EhFrameBuilder eh) {
        return withIndex(eh, eh.index(EH_FRAME_HDR_ADDRESS));
    }

    /** {@code .eh_frame} with the given bytes as its index (for damaged indexes). */
    public static ElfFile withIndex(EhFrameBuilder eh, byte[] index) {
        return new ElfImageBuilder()
                .section(".eh_frame_hdr", EH_FRAME_HDR_ADDRESS, index)
                .section(".eh_frame", EH_FRAME_ADDRESS, eh.bytes())
                .build();
    }
}
