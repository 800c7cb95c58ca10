package io.mixflame.examples.jvmcode;

import java.util.concurrent.atomic.AtomicLong;

/** One shape of work: a round of it, returning a value the JIT must keep. */
interface Shape {
    /** Where results go, so that no round is optimized away. */
    AtomicLong SINK = new AtomicLong();

    long round();
}
