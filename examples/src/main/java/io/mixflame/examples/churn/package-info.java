/**
 * The {@code churn} workload: what makes a profiler's bookkeeping hard — short-lived threads started in bursts, and
 * classes defined in throwaway loaders, compiled, deoptimized and unloaded again and again.
 */
package io.mixflame.examples.churn;
