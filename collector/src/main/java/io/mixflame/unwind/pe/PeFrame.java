package io.mixflame.unwind.pe;

import io.mixflame.image.pe.LoadedPeImage;

/**
 * One frame of a walked PE stack.
 *
 * @param pc    the frame's pc: the interrupted instruction for the first frame, a return address for the others
 * @param sp    the frame's rsp (for callers: the rsp just after the call returned)
 * @param image the image the pc lies in
 */
public record PeFrame(long pc, long sp, LoadedPeImage image) {
}
