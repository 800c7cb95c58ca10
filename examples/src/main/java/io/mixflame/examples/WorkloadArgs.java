package io.mixflame.examples;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The options of one workload: {@code --seconds N}, which every workload understands, and the flags (no value)
 * and positive numbers that the workload declares.
 *
 * @param seconds how long to run
 * @param flags   the declared flags that were given
 * @param numbers the declared numbers that were given, by name
 */
record WorkloadArgs(int seconds, Set<String> flags, Map<String, Long> numbers) {
    static final int DEFAULT_SECONDS = 10;

    WorkloadArgs {
        flags = Set.copyOf(flags);
        numbers = Map.copyOf(numbers);
    }

    /** Parses a workload's arguments when it takes only {@code --seconds}. */
    static WorkloadArgs parse(List<String> args) {
        return parse(args, Set.of(), Set.of());
    }

    /**
     * Parses a workload's arguments.
     *
     * @param knownFlags   options without a value, such as {@code --load}
     * @param knownNumbers options with a positive whole number, such as {@code --rounds}
     * @throws IllegalArgumentException naming the first argument that is not understood
     */
    static WorkloadArgs parse(List<String> args, Set<String> knownFlags, Set<String> knownNumbers) {
        int seconds = DEFAULT_SECONDS;
        Set<String> flags = new HashSet<>();
        Map<String, Long> numbers = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--seconds") && i + 1 < args.size()) {
                seconds = Math.toIntExact(positive(a, args.get(++i)));
            } else if (knownFlags.contains(a)) {
                flags.add(a);
            } else if (knownNumbers.contains(a) && i + 1 < args.size()) {
                numbers.put(a, positive(a, args.get(++i)));
            } else {
                Set<String> expected = new TreeSet<>(knownFlags);
                knownNumbers.forEach(n -> expected.add(n + " N"));
                expected.add("--seconds N");
                throw new IllegalArgumentException("unknown argument '" + a + "' (expected " + expected + ")");
            }
        }
        return new WorkloadArgs(seconds, flags, numbers);
    }

    /** Whether a flag was given. */
    boolean has(String flag) {
        return flags.contains(flag);
    }

    /** Whether a number was given for an option. */
    boolean given(String name) {
        return numbers.containsKey(name);
    }

    /** The number given for an option, or {@code fallback}. */
    long number(String name, long fallback) {
        return numbers.getOrDefault(name, fallback);
    }

    private static long positive(String option, String value) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a whole number, not '" + value + "'");
        }
        if (n <= 0) {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return n;
    }
}
