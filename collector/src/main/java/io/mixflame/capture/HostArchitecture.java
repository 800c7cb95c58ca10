package io.mixflame.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The architecture the profiler runs on: the one place that reads {@code os.arch} to choose a
 * {@link CpuArchitecture}, among those listed in {@code META-INF/services} (a port adds its implementation and its
 * line there, and edits nothing here). Where none names the host, or the one that does describes itself
 * inconsistently, the host is unsupported: {@link #unsupportedReason} says why in one line, the captures that read
 * registers refuse to start with it, and the JVM runs on unprofiled rather than failing.
 */
public final class HostArchitecture {
    private static final String OS_ARCH = System.getProperty("os.arch", "");
    private static final CpuArchitecture CURRENT = choose(OS_ARCH, available());

    private HostArchitecture() {
    }

    /** The host's architecture; an unsupported host's stands in with harmless numbers. */
    public static CpuArchitecture current() {
        return CURRENT;
    }

    /**
     * The JVM's name for the host's architecture, as {@code os.arch} gives it: what the build names native code by
     * ({@code native/arch/<os.arch>}, and the jar's {@code linux-<os.arch>} resources), so that a port's native files
     * are found by name.
     */
    public static String osArch() {
        return OS_ARCH;
    }

    /** Why the host's registers cannot be captured, in one line; null when they can. */
    public static String unsupportedReason() {
        return CURRENT instanceof UnsupportedArchitecture u ? u.reason() : null;
    }

    /** The architecture among {@code candidates} that names {@code osArch}, or an unsupported one saying why. */
    static CpuArchitecture choose(String osArch, List<CpuArchitecture> candidates) {
        for (CpuArchitecture candidate : candidates) {
            if (candidate.isNamed(osArch)) {
                String inconsistency = inconsistency(candidate);
                return inconsistency == null ? candidate : new UnsupportedArchitecture(osArch,
                        "the description of " + candidate.name() + " is inconsistent: " + inconsistency);
            }
        }
        List<String> known = new ArrayList<>();
        for (CpuArchitecture candidate : candidates) {
            known.add(candidate.name());
        }
        return new UnsupportedArchitecture(osArch, "native stacks are not captured on '" + osArch
                + "': the profiler describes the registers of " + known + " only");
    }

    private static List<CpuArchitecture> available() {
        List<CpuArchitecture> found = new ArrayList<>();
        try {
            for (CpuArchitecture a : ServiceLoader.load(CpuArchitecture.class, CpuArchitecture.class.getClassLoader())) {
                found.add(a);
            }
        } catch (ServiceConfigurationError e) {
            // A broken entry leaves the host unsupported (no architecture names it), never the class unloadable.
        }
        return found;
    }

    /**
     * What is wrong with an architecture's description, or null: checked once here, so that the per-sample code can
     * index by its numbers without checking them.
     */
    static String inconsistency(CpuArchitecture a) {
        int count = a.registerCount();
        if (count <= 0 || count > CpuArchitecture.MAX_REGISTERS) {
            return count + " registers, not 1 to " + CpuArchitecture.MAX_REGISTERS;
        }
        int pc = a.programCounter();
        int sp = a.stackPointer();
        int fp = a.framePointer();
        if (!inRange(pc, count) || !inRange(sp, count) || !inRange(fp, count) || pc == sp || pc == fp || sp == fp) {
            return "pc " + pc + ", sp " + sp + " and fp " + fp + " are not distinct registers below " + count;
        }
        int[] perf = a.perfSampleRegisters();
        if (perf.length != Long.bitCount(a.perfRegisterMask())) {
            return perf.length + " perf registers for a mask of " + Long.bitCount(a.perfRegisterMask());
        }
        if (!holds(perf, pc) || !holds(perf, sp)) {
            return "perf samples carry no pc or no sp";
        }
        int[] ptrace = a.ptraceRegisterWords();
        if (ptrace.length != count) {
            return ptrace.length + " ptrace words for " + count + " registers";
        }
        for (int word : ptrace) {
            if (word >= 0 && 8L * (word + 1) > a.ptraceRegisterBytes()) {
                return "ptrace word " + word + " lies past the register set's " + a.ptraceRegisterBytes() + " bytes";
            }
        }
        int[] timer = a.timerRecordRegisters();
        if (timer.length > CpuArchitecture.TIMER_RECORD_SLOTS) {
            return timer.length + " timer record slots, more than " + CpuArchitecture.TIMER_RECORD_SLOTS;
        }
        for (int[] registers : new int[][] {perf, timer}) {
            for (int r : registers) {
                if (r >= count) {
                    return "register " + r + " is not below " + count;
                }
            }
        }
        return null;
    }

    private static boolean inRange(int register, int count) {
        return register >= 0 && register < count;
    }

    private static boolean holds(int[] registers, int register) {
        for (int r : registers) {
            if (r == register) {
                return true;
            }
        }
        return false;
    }
}
