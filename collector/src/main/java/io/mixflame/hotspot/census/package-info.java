/**
 * The census of a JVM's code heaps, as an interface: every code blob in one pass, from which the code cache's recent
 * history is made. Its implementations read the JVM's memory their own way (see {@code io.mixflame.hotspot.linux}).
 */
package io.mixflame.hotspot.census;
