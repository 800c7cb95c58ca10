/**
 * What the captures and unwinders share of the x86-64 architecture: its registers' numbers ({@code X64Registers}) and
 * the kernel's layout of them for ptrace ({@code X64UserRegs}).
 */
package io.mixflame.capture.x64;
