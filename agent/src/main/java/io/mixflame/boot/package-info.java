/**
 * The boot classes, the only ones at the top level of {@code mixflame.jar}: the entry points of {@code -javaagent},
 * dynamic attach and {@code java -jar}, and the isolated class loader that holds the profiler and its dependencies
 * under {@code MIXFLAME-INF/classes/}, apart from the application's. Nothing here may throw into the application, whose
 * start an exception out of {@code premain} would stop.
 */
package io.mixflame.boot;
