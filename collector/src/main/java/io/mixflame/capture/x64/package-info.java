/**
 * x86-64 behind the architecture seam: {@code X64Architecture}, the {@link io.mixflame.capture.CpuArchitecture}
 * listed in {@code META-INF/services}, with the register layouts it maps from (DWARF's numbers in
 * {@code X64Registers}, perf's in {@code X64PerfRegisters}, ptrace's {@code user_regs_struct} in
 * {@code X64UserRegs}). The Windows x64 packages ({@code capture.windows}, {@code unwind.pe},
 * {@code unwind.windows}) name {@code X64Registers} directly: Windows x64's CONTEXT and unwind data are x86-64 by
 * nature, and another Windows architecture would add packages of its own.
 */
package io.mixflame.capture.x64;
