package io.mixflame.testapp;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.mixflame.hotspot.BooleanFlagSwitch;
import io.mixflame.platform.TargetProcess;
import io.mixflame.platform.host.TargetProcesses;
import java.lang.management.ManagementFactory;

/**
 * Turns on each flag named in its arguments in its own JVM and prints, per flag, the switch's outcome and the
 * value the JVM's management view gives before and after ({@code FLAG outcome before after}); run with
 * {@code -XX:+UnlockDiagnosticVMOptions} so that diagnostic flags are visible there.
 */
public final class FlagSwitchApp {
    private FlagSwitchApp() {
    }

    public static void main(String[] args) throws Exception {
        HotSpotDiagnosticMXBean flags = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        try (TargetProcess self = TargetProcesses.open(ProcessHandle.current().pid())) {
            for (String name : args) {
                String before = value(flags, name);
                BooleanFlagSwitch.Outcome outcome = BooleanFlagSwitch.turnOn(self.modules(), self.memory(), name);
                System.out.println(name + " " + outcome + " " + before + " " + value(flags, name));
            }
        }
        System.out.println("done");
    }

    private static String value(HotSpotDiagnosticMXBean flags, String name) {
        try {
            return flags.getVMOption(name).getValue();
        } catch (IllegalArgumentException e) {
            return "-";
        }
    }
}
