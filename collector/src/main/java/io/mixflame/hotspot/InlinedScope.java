package io.mixflame.hotspot;

/**
 * One level of a compiled frame: a method and the bytecode index it is at.
 *
 * @param method the Method*
 * @param bci    the bytecode index, -1 at the method's synchronization entry
 */
public record InlinedScope(long method, int bci) {
}
