package io.mixflame.report;

/** {@link ReadBounds#DEFAULT} with one bound made small, for tests that go past it. */
final class TestBounds {

    private static final ReadBounds D = ReadBounds.DEFAULT;

    private TestBounds() {
    }

    static ReadBounds lineBytes(int n) {
        return new ReadBounds(n, D.maxStackDepth(), D.maxStacks(), D.maxFrames(), D.maxTextChars(),
                D.maxStackFrames(), D.maxPageLines());
    }

    static ReadBounds stackDepth(int n) {
        return new ReadBounds(D.maxLineBytes(), n, D.maxStacks(), D.maxFrames(), D.maxTextChars(),
                D.maxStackFrames(), D.maxPageLines());
    }

    static ReadBounds stacks(int n) {
        return new ReadBounds(D.maxLineBytes(), D.maxStackDepth(), n, D.maxFrames(), D.maxTextChars(),
                D.maxStackFrames(), D.maxPageLines());
    }

    static ReadBounds frames(int n) {
        return new ReadBounds(D.maxLineBytes(), D.maxStackDepth(), D.maxStacks(), n, D.maxTextChars(),
                D.maxStackFrames(), D.maxPageLines());
    }

    static ReadBounds textChars(long n) {
        return new ReadBounds(D.maxLineBytes(), D.maxStackDepth(), D.maxStacks(), D.maxFrames(), n,
                D.maxStackFrames(), D.maxPageLines());
    }

    static ReadBounds stackFrames(long n) {
        return new ReadBounds(D.maxLineBytes(), D.maxStackDepth(), D.maxStacks(), D.maxFrames(), D.maxTextChars(),
                n, D.maxPageLines());
    }

    static ReadBounds pageLines(int n) {
        return new ReadBounds(D.maxLineBytes(), D.maxStackDepth(), D.maxStacks(), D.maxFrames(), D.maxTextChars(),
                D.maxStackFrames(), n);
    }
}
