/**
 * The {@code jvmcode} workload: code that runs mostly in what the JVM generates rather than in compiled Java (intrinsic
 * stubs, vtable and itable stubs, array copies, the clocks' natives), one thread per shape so that each shape is judged
 * on its own samples.
 */
package io.mixflame.examples.jvmcode;
