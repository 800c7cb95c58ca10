package io.mixflame.stack;

/**
 * How to capture one thread's stack, in the spirit of Windows CE's GetThreadCallStack: how many frames, how many to
 * skip (to page through a long stack), and what to do when the walk cannot reach the thread's first frame.
 *
 * @param maxFrames           frames to return at most, after skipping
 * @param skip                innermost frames to leave out; {@code skip = k * maxFrames} pages through a stack
 * @param failIfIncomplete    an incomplete walk is an error (no frames unless {@code returnFramesOnError})
 * @param inProcessOnly       leave out kernel frames
 * @param returnFramesOnError on an error, return the frames found so far along with it
 * @param addressesOnly       do not name frames (faster): only addresses and kinds
 * @param extendedInfo        fill each frame's sp, fp and return address
 */
public record CaptureOptions(int maxFrames, int skip, boolean failIfIncomplete, boolean inProcessOnly,
                             boolean returnFramesOnError, boolean addressesOnly, boolean extendedInfo) {

    /** Every frame, named, with kernel frames; an incomplete walk returns what it found. */
    public static final CaptureOptions DEFAULT = new CaptureOptions(2048, 0, false, false, false, false, false);

    public CaptureOptions {
        if (maxFrames <= 0 || skip < 0) {
            throw new IllegalArgumentException("maxFrames must be positive and skip not negative");
        }
    }

    public CaptureOptions withMaxFrames(int n) {
        return new CaptureOptions(n, skip, failIfIncomplete, inProcessOnly, returnFramesOnError, addressesOnly, extendedInfo);
    }

    public CaptureOptions withSkip(int n) {
        return new CaptureOptions(maxFrames, n, failIfIncomplete, inProcessOnly, returnFramesOnError, addressesOnly, extendedInfo);
    }

    public CaptureOptions withFailIfIncomplete(boolean b) {
        return new CaptureOptions(maxFrames, skip, b, inProcessOnly, returnFramesOnError, addressesOnly, extendedInfo);
    }

    public CaptureOptions withInProcessOnly(boolean b) {
        return new CaptureOptions(maxFrames, skip, failIfIncomplete, b, returnFramesOnError, addressesOnly, extendedInfo);
    }

    public CaptureOptions withReturnFramesOnError(boolean b) {
        return new CaptureOptions(maxFrames, skip, failIfIncomplete, inProcessOnly, b, addressesOnly, extendedInfo);
    }

    public CaptureOptions withAddressesOnly(boolean b) {
        return new CaptureOptions(maxFrames, skip, failIfIncomplete, inProcessOnly, returnFramesOnError, b, extendedInfo);
    }

    public CaptureOptions withExtendedInfo(boolean b) {
        return new CaptureOptions(maxFrames, skip, failIfIncomplete, inProcessOnly, returnFramesOnError, addressesOnly, b);
    }
}
