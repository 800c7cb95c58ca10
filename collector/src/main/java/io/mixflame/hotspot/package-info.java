/**
 * HotSpot's own structures, read from the JVM's memory through the tables it describes itself with
 * ({@code gHotSpotVMStructs} and its companions): the code cache and its blobs, the interpreter and the generated
 * stubs, methods and their inlining scopes, and the Java threads with their names and last Java frames. The HotSpot
 * unwinder and the Java frame namer read the JVM through this package.
 */
package io.mixflame.hotspot;
