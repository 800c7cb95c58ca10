/**
 * The engine built into every JDK, and the source of allocation and lock profiles: JFR's execution and native-method
 * samples and the JDK's allocation and lock events, streamed in-process and turned into the profile's frames. The last
 * engine the agent falls back to when the native ones are refused.
 */
package io.mixflame.engine.jfr;
