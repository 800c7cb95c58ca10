/**
 * The unwinder of code in HotSpot's code cache: it tells interpreted, compiled, stub and entry frames apart by the
 * code cache and has the architecture's {@link io.mixflame.unwind.hotspot.HotSpotFrameRules} take each step (x86-64's
 * in {@code x64}), made by the {@code HotSpotFrameRulesFactory} listed as a service for the host's architecture. A walk that breaks in native code goes on from where the thread last left Java.
 */
package io.mixflame.unwind.hotspot;
