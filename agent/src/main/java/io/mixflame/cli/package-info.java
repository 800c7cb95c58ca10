/**
 * The command-line tool, {@code java -jar mixflame.jar COMMAND}: {@code attach} to a running JVM, {@code launch} an
 * application with profiling started, {@code record} another process from outside, {@code stacks} of every thread with
 * native frames in place, and the {@code helper} process the helper engine starts. The report commands ({@code report},
 * {@code diff}, {@code top}) come from {@code io.mixflame.report.cli}.
 */
package io.mixflame.cli;
