/**
 * The report stage, last in the pipeline: writers and readers of the profile's file formats (collapsed stacks, HTML
 * flame graphs, pprof, JFR, OpenTelemetry profiles, and the sample stream a helper process sends), and what shapes a
 * profile as it is written (filters, reversal, frame spelling) with async-profiler's meanings. Reads are bounded, and
 * files are replaced atomically.
 */
package io.mixflame.report;
