/**
 * The report tools of the command line: {@code report} (a profile converted to another format and shaped with
 * async-profiler's options), {@code diff} (a differential flame graph) and {@code top} (the hottest frames). A failure
 * ends a command with one line and an exit status.
 */
package io.mixflame.report.cli;
