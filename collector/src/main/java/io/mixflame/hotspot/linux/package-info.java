/**
 * Reading HotSpot's code heaps on Linux from inside the JVM, through mixflame's native library with plain loads of the
 * heaps' committed memory: the census of every code blob, taken by the walker, and the keeper, a native thread that
 * takes the censuses ahead of a walker that runs late and logs what changed between them.
 */
package io.mixflame.hotspot.linux;
