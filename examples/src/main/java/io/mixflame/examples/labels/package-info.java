/**
 * The workloads for labels: {@code endpoints}, HTTP endpoints on the JDK's server or on Jetty whose requests cost CPU
 * in a known ratio, and {@code labels}, threads that switch labels through the {@code mixflame-api}; a profile's label
 * frames are checked against what each thread did.
 */
package io.mixflame.examples.labels;
