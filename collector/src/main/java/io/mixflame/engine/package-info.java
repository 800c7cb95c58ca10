/**
 * The samplers that drive the pipeline's stages and feed the profile: the {@code SamplingEngine} contract, what an
 * engine is asked to sample, and what every engine shares, above all {@code SampleStackBuilder}, which turns any
 * engine's capture into the profile's frames, and {@code SampleEmitter}, the one step that builds, labels and adds
 * each sample. The engines themselves are {@code engine.perf} (perf events, or the
 * in-thread timer's ring), {@code engine.wall}, {@code engine.jfr} and {@code engine.suspend} (stopping threads:
 * ptrace on Linux, SuspendThread on Windows); {@code engine.linux} holds what the Linux engines share, and
 * {@code engine.external} picks the one that profiles another process.
 */
package io.mixflame.engine;
