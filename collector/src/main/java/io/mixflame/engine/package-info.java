/**
 * The samplers that drive the pipeline's stages and feed the profile: the {@code SamplingEngine} contract, what an
 * engine is asked to sample, and what every engine shares, above all {@code SampleStackBuilder}, which turns any
 * engine's capture into the profile's frames. {@code ExternalEngines} picks the engine that profiles another process on
 * each system; the engines themselves are {@code engine.perf}, {@code engine.wall}, {@code engine.jfr} and
 * {@code engine.suspend}.
 */
package io.mixflame.engine;
