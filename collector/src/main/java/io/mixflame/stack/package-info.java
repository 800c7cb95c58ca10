/**
 * The stack-walking API behind {@code stacks}: {@code ProcessStackWalker} walks the threads of one process, this one or
 * another, into Java and native frames in true call order, in the spirit of the Windows APIs (StackWalk64, SymFromAddr,
 * GetThreadCallStack). It runs capture, unwind and symbolize for one thread at a time, on demand.
 */
package io.mixflame.stack;
