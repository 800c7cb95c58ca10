package io.mixflame.examples;

import java.util.Arrays;
import java.util.List;

/** {@code java -jar mixflame-examples.jar WORKLOAD [options]}: workloads to profile, each with a known truth. */
public final class Examples {
    private static final String USAGE = String.join("\n",
            "usage: java -jar mixflame-examples.jar WORKLOAD [--seconds N]",
            "  cpu    burns CPU in methods ending in alpha, beta and gamma in the ratio 50:30:20");

    private Examples() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println(USAGE);
            System.exit(2);
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "cpu" -> CpuWorkload.main(WorkloadArgs.parse(rest));
            default -> {
                System.err.println("unknown workload '" + args[0] + "'\n" + USAGE);
                System.exit(2);
            }
        }
    }
}
