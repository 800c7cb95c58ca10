/**
 * The census of a JVM's code heaps, as an interface: every code blob in one pass, from which the code cache's recent
 * history is made. Its implementations read the JVM's memory their own way: plain loads in the JVM's own process
 * ({@code io.mixflame.hotspot.linux}), gathered reads of another JVM's ({@link GatheredCodeCensus}).
 */
package io.mixflame.hotspot.census;
