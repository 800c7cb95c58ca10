/**
 * Labels and trace spans in the agent: the label recorder of one profiling run, which the application's threads reach
 * through the bootstrap bridge ({@code io.mixflame.bridge}) from the woven HTTP servers, from the {@code mixflame-api},
 * as the {@code labels} option says, and from OpenTelemetry's woven context storage, whose contexts are read here
 * ({@code traces}). The weaving and Byte Buddy are loaded from a jar of their own only when either is asked for.
 */
package io.mixflame.agent.labels;
