/**
 * Labels in the agent: the label recorder of one profiling run, which the application's threads reach through the
 * bootstrap bridge ({@code io.mixflame.bridge}) from the woven HTTP servers and from the {@code mixflame-api}, as the
 * {@code labels} option says. The HTTP servers' weaving and Byte Buddy are loaded from a jar of their own only when
 * HTTP labels are asked for.
 */
package io.mixflame.agent.labels;
