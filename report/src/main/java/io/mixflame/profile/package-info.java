/**
 * The profile model, between the samplers and the report stage: immutable profiles of distinct stacks with their sample
 * counts and weights, the frames they are made of, and the bounded accumulator engines put their samples into. The
 * collector fills profiles; {@code io.mixflame.report} writes and reads them.
 */
package io.mixflame.profile;
