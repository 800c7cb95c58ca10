/**
 * The API applications compile against ({@code mixflame-api}): {@code Labels} puts labels on the samples taken while a
 * scope of code runs on the current thread. It has no dependencies and does nothing without the mixflame agent.
 */
package io.mixflame.api;
