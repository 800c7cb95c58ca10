package io.mixflame.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The stacks of a collapsed profile written with {@code threads}, by thread name: each stack's frames below its
 * {@code [name tid=N]} root, with its count, so that a test judges each thread on its own samples.
 */
public final class ThreadStacks {
    /** One stack: its frames root first (the thread root left out), and its samples. */
    public record Stack(List<String> frames, long count) {
    }

    private final List<Stack> stacks;

    private ThreadStacks(List<Stack> stacks) {
        this.stacks = stacks;
    }

    /**
     * The stacks of the thread named {@code thread} in all of {@code files}: those walked (samples counted as
     * {@code [dropped]}, taken but not walked in time, have none).
     */
    public static ThreadStacks of(String thread, List<Path> files) throws IOException {
        String root = "[" + thread + " tid=";
        List<Stack> stacks = new ArrayList<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.startsWith(root)) {
                    continue;
                }
                int space = line.lastIndexOf(' ');
                List<String> frames = List.of(line.substring(0, space).split(";"));
                if (frames.size() == 2 && frames.get(1).equals("[dropped]")) {
                    continue; // taken but not walked in time: counted in the profile, with no stack to judge
                }
                stacks.add(new Stack(frames.subList(1, frames.size()), Long.parseLong(line.substring(space + 1))));
            }
        }
        return new ThreadStacks(stacks);
    }

    /** All of the thread's samples. */
    public long samples() {
        return count(s -> true);
    }

    /** The samples whose stack satisfies {@code test}. */
    public long count(Predicate<Stack> test) {
        long n = 0;
        for (Stack s : stacks) {
            if (test.test(s)) {
                n += s.count();
            }
        }
        return n;
    }

    /** The share of the thread's samples whose stack satisfies {@code test}; 0 without samples. */
    public double share(Predicate<Stack> test) {
        long all = samples();
        return all == 0 ? 0 : (double) count(test) / all;
    }

    /** A test of a stack: some frame satisfies {@code frame}. */
    public static Predicate<Stack> anyFrame(Predicate<String> frame) {
        return s -> s.frames().stream().anyMatch(frame);
    }

    /** The stacks that satisfy {@code test}. */
    public ThreadStacks only(Predicate<Stack> test) {
        return new ThreadStacks(stacks.stream().filter(test).toList());
    }

    /** The stacks as text, most samples first, at most {@code limit} of them: for a failure's message. */
    public String top(int limit) {
        return top(limit, s -> true);
    }

    /** The stacks that satisfy {@code test} as text, most samples first, at most {@code limit} of them. */
    public String top(int limit, Predicate<Stack> test) {
        StringBuilder b = new StringBuilder();
        stacks.stream().filter(test).sorted((x, y) -> Long.compare(y.count(), x.count())).limit(limit)
                .forEach(s -> b.append(String.join(";", s.frames())).append(' ').append(s.count()).append('\n'));
        return b.toString();
    }
}
