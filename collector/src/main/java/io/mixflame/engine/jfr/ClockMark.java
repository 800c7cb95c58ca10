package io.mixflame.engine.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An event of the profiler's own, committed into its event stream with the JVM's {@code nanoTime} of the moment:
 * read back, it says how the stream's event times map onto the clock threads stamp their label changes with, to the
 * microsecond (the wall clock the event times are given in has milliseconds only, through
 * {@code currentTimeMillis}).
 */
@Name(ClockMark.NAME)
@Label("mixflame clock mark")
@Category("mixflame")
@Description("The JVM's System.nanoTime() at this event's time")
@StackTrace(false)
final class ClockMark extends Event {
    static final String NAME = "mixflame.ClockMark";

    @Label("nanoTime")
    long nanoTime;
}
