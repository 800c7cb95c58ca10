/** The CPU time of the calling thread, which the examples that report their own split measure their work by. */
package io.mixflame.examples.cputime;
