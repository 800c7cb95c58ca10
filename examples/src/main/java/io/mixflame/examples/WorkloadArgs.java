package io.mixflame.examples;

import java.util.List;

/**
 * The options every workload understands.
 *
 * @param seconds how long to run
 */
record WorkloadArgs(int seconds) {
    static WorkloadArgs parse(List<String> args) {
        int seconds = 10;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--seconds") && i + 1 < args.size()) {
                seconds = Integer.parseInt(args.get(++i));
            } else {
                throw new IllegalArgumentException("unknown argument '" + a + "' (expected --seconds N)");
            }
        }
        if (seconds <= 0) {
            throw new IllegalArgumentException("--seconds must be positive");
        }
        return new WorkloadArgs(seconds);
    }
}
