/**
 * Names the Java and stub frames of a walk from HotSpot's metadata: an interpreted frame as one method at one bytecode
 * index, a compiled frame as the chain of methods inlined at its pc, a stub by the JVM's name for it.
 */
package io.mixflame.symbolize.java;
