/**
 * The alternative native unwinder of PE frames on Windows: DbgHelp's StackWalk64, one step at a time, in place of
 * mixflame's own reading of {@code .pdata}/{@code .xdata}, for comparison and for images whose unwind data mixflame
 * reads wrongly.
 */
package io.mixflame.unwind.windows;
