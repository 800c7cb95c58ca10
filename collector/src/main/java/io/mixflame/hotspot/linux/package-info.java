/**
 * Reading HotSpot's code heaps on Linux from inside the JVM: the census of every code blob through mixflame's native
 * library, with plain loads of the heaps' committed memory.
 */
package io.mixflame.hotspot.linux;
