package io.mixflame.agent;

import io.mixflame.hotspot.BooleanFlagSwitch;
import io.mixflame.platform.TargetProcess;
import io.mixflame.platform.host.TargetProcesses;
import io.mixflame.process.OwnPid;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns on {@code DebugNonSafepoints} in the JVM the agent runs in, as async-profiler does: without it, compiled
 * code records which inlined method it is in only at its safepoints, and a sample between two of them (an array
 * copy called from an inlined {@code StringBuilder.delete}, say) is named after whichever method the nearest
 * safepoint belongs to. The compilers read the flag at each compilation, so methods compiled from then on are
 * attributed exactly; those compiled earlier (before an attach) stay at safepoint granularity until recompiled.
 */
public final class InlinedFrameDetail {
    private static final Logger LOG = LoggerFactory.getLogger(InlinedFrameDetail.class);
    static final String FLAG = "DebugNonSafepoints";
    /** The helper process's note saying it turned the flag on in the JVM it samples. */
    public static final String HELPER_NOTE = "helper: " + FLAG + " on";

    private InlinedFrameDetail() {
    }

    /**
     * Turns the flag on in another process, as the helper process does for the JVM that started it: the JVM's own
     * switch reads its flag table through JNA, some 150 compilations in the service's JIT (BENCHMARKS.md), which the
     * helper then spares it. Not on Windows, where the helper's handle to the JVM reads only.
     *
     * @return whether the flag is on now (or was)
     */
    public static boolean turnOnFrom(long pid) {
        if (TargetProcesses.onWindows()) {
            return false;
        }
        try (TargetProcess target = TargetProcesses.open(pid)) {
            BooleanFlagSwitch.Outcome outcome = BooleanFlagSwitch.turnOn(target.modules(), target.memory(), FLAG);
            return outcome == BooleanFlagSwitch.Outcome.TURNED_ON || outcome == BooleanFlagSwitch.Outcome.ALREADY_ON;
        } catch (RuntimeException | IOException e) {
            return false;
        }
    }

    /** Turns the flag on where it is off, saying in one log line what came of it; never fails. */
    static BooleanFlagSwitch.Outcome turnOn() {
        BooleanFlagSwitch.Outcome outcome;
        try (TargetProcess self = TargetProcesses.open(OwnPid.get())) {
            outcome = BooleanFlagSwitch.turnOn(self.modules(), self.memory(), FLAG);
        } catch (RuntimeException | IOException e) {
            LOG.info("{} could not be turned on ({}): compiled frames are named at safepoint granularity", FLAG,
                    e.getMessage());
            return BooleanFlagSwitch.Outcome.NOT_WRITTEN;
        }
        switch (outcome) {
            case TURNED_ON -> LOG.debug("turned on {}: methods compiled from now on are named at each instruction", FLAG);
            case ALREADY_ON -> LOG.debug("{} was on already", FLAG);
            default -> LOG.info("{} could not be turned on ({}): compiled frames are named at safepoint granularity",
                    FLAG, outcome == BooleanFlagSwitch.Outcome.NO_SUCH_FLAG ? "this JVM does not describe it"
                            : "its value could not be written");
        }
        return outcome;
    }
}
