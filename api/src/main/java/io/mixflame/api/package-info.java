/**
 * The API applications compile against ({@code mixflame-api}): {@code Labels} puts labels on the samples taken while a
 * scope of code runs on the current thread, and {@code Mixflame} runs the agent's commands (start, stop, dump,
 * status) from the application's own code. It has no dependencies and does nothing without the mixflame agent.
 */
package io.mixflame.api;
