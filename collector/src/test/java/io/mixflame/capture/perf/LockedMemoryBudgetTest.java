package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LockedMemoryBudgetTest {
    private static final long KIB = 1024;
    private static final long RECORD = 17 * KIB;
    private static final long TEN_MS = 10_000_000L;

    @Test
    void anOrdinaryUserGetsTheAllowanceAndHalfOfUlimitL() {
        // 2 CPUs, 516 KiB each, ulimit -l 8 MiB: 1032 KiB + 4 MiB = 5128 KiB, 2564 KiB a CPU, 640 pages less the
        // header: 512 pages (2 MiB), short of the 2 s wanted (200 records of 17 KiB, 1024 pages).
        LockedMemoryBudget budget = new LockedMemoryBudget(2 * 516 * KIB, 8192 * KIB, false);
        assertThat(budget.ringPages(2, TEN_MS, RECORD, 128)).isEqualTo(512);
        assertThat(budget.why()).contains("2 s").contains("1032 KiB").contains("8192 KiB");
    }

    @Test
    void rootGetsWhatTwoSecondsNeedWithinTheOverallBound() {
        LockedMemoryBudget root = new LockedMemoryBudget(2 * 516 * KIB, 8192 * KIB, true);
        assertThat(root.ringPages(2, TEN_MS, RECORD, 128)).as("200 records of 17 KiB: 850 pages, rounded up")
                .isEqualTo(1024);
        // 64 CPUs at 1 ms would want 8 MiB each: 64 MiB in all, 1 MiB a CPU less the header page.
        assertThat(root.ringPages(64, 1_000_000L, RECORD, 128)).isEqualTo(128);
        assertThat(root.ringPages(16, 1_000_000L, RECORD, 128)).isEqualTo(512);
        assertThat(root.why()).contains("CAP_IPC_LOCK");
    }

    @Test
    void neverLessThanTheLeastAskedNorMoreThanTwoSecondsNeed() {
        LockedMemoryBudget none = new LockedMemoryBudget(0, 0, false);
        assertThat(none.ringPages(8, TEN_MS, RECORD, 128)).isEqualTo(128);
        LockedMemoryBudget unlimited = new LockedMemoryBudget(516 * KIB, -1, false);
        assertThat(unlimited.ringPages(1, 100_000_000L, RECORD, 16)).as("20 records: 85 pages, rounded up")
                .isEqualTo(128);
    }

    @Test
    void readsTheLimitAndTheCapabilityAsProcWritesThem() {
        String limits = "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max open files            1024                 524288               files     \n"
                + "Max locked memory         8388608              8388608              bytes     \n";
        assertThat(LockedMemoryBudget.rlimitOf(limits)).isEqualTo(8388608);
        assertThat(LockedMemoryBudget.rlimitOf(limits.replace("8388608              8388608",
                "unlimited            unlimited"))).isEqualTo(-1);
        assertThat(LockedMemoryBudget.ipcLockOf("Name:\tjava\nCapEff:\t000001ffffffffff\n")).isTrue();
        assertThat(LockedMemoryBudget.ipcLockOf("Name:\tjava\nCapEff:\t0000000000000000\n")).isFalse();
        assertThat(LockedMemoryBudget.ipcLockOf("CapEff:\t0000000000004000\n")).isTrue();
    }
}
