/**
 * The labels each thread records about itself, and the samplers' look-up of them at a sample's time: the application's
 * threads write their label changes to per-thread rings outside the Java heap, as ids of bounded sets of labels, and an
 * engine puts the frames of the set in force into each sample's stack after its thread's root frame. The same rings
 * carry the trace span current on each thread (a handle into a bounded table of spans), whose ids become label frames
 * too, bounded per period. A helper process that samples a JVM from outside reads the labels of the same rings through
 * that JVM's memory.
 */
package io.mixflame.capture.labels;
