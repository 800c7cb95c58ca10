/**
 * The wall-clock engine on Linux: at every tick each thread of the process is sampled whether it runs or waits, a
 * thread blocked in the kernel from its syscall line without stopping it. Each sample stands for one interval of its
 * thread's time, with the thread's state as its leaf frame.
 */
package io.mixflame.engine.wall;
