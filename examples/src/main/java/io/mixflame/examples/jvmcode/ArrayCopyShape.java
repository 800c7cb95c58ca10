package io.mixflame.examples.jvmcode;

/** Appends at the end of a 1 M-char buffer and deletes from its front: each delete copies the whole buffer. */
final class ArrayCopyShape implements Shape {
    private static final int LENGTH = 1 << 20;
    private final StringBuilder buffer = new StringBuilder(LENGTH + 64);

    ArrayCopyShape() {
        for (int i = 0; i < LENGTH; i++) {
            buffer.append((char) ('a' + i % 26));
        }
    }

    @Override
    public long round() {
        buffer.append('x');
        buffer.delete(0, 1);
        return buffer.length();
    }
}
