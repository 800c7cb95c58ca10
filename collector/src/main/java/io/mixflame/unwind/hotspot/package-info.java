/**
 * The unwinder of code in HotSpot's code cache, by the JVM's own rules on x86-64: interpreted, compiled, stub and entry
 * frames, with the few instructions HotSpot emits where a frame is built or taken down decoded to tell how much of the
 * frame is on the stack. A walk that breaks in native code goes on from where the thread last left Java.
 */
package io.mixflame.unwind.hotspot;
