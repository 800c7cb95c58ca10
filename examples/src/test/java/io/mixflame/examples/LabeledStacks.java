package io.mixflame.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The stacks of collapsed profiles with their counts, for tests that ask which labels ({@code [key=value]} frames
 * at the root) the samples of some code carry.
 */
final class LabeledStacks {
    /** One stack: its frames root first and its samples. */
    record Stack(List<String> frames, long samples) {
        /** Whether a frame of the stack contains {@code text}. */
        boolean has(String text) {
            for (String f : frames) {
                if (f.contains(text)) {
                    return true;
                }
            }
            return false;
        }

        /** The stack's label frames, {@code [key=value]}, before its first frame of code (thread frames skipped). */
        List<String> labels() {
            List<String> labels = new ArrayList<>();
            for (String f : frames) {
                if (f.startsWith("[") && f.endsWith("]") && f.contains("=") && !f.contains(" tid=")) {
                    labels.add(f);
                } else if (!f.contains(" tid=")) {
                    break;
                }
            }
            return labels;
        }
    }

    private final List<Stack> stacks;

    private LabeledStacks(List<Stack> stacks) {
        this.stacks = stacks;
    }

    static LabeledStacks read(List<Path> files) throws IOException {
        List<Stack> stacks = new ArrayList<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                int space = line.lastIndexOf(' ');
                stacks.add(new Stack(List.of(line.substring(0, space).split(";")),
                        Long.parseLong(line.substring(space + 1))));
            }
        }
        return new LabeledStacks(stacks);
    }

    static LabeledStacks read(Path file) throws IOException {
        return read(List.of(file));
    }

    /** The samples of the stacks {@code test} accepts. */
    long samples(Predicate<Stack> test) {
        return stacks.stream().filter(test).mapToLong(Stack::samples).sum();
    }

    /** The first few stacks {@code test} accepts, each with its count, for a failure's message. */
    String describe(Predicate<Stack> test) {
        StringBuilder b = new StringBuilder();
        stacks.stream().filter(test).limit(5).forEach(s -> b.append('\n').append(String.join(";", s.frames()))
                .append(' ').append(s.samples()));
        return b.toString();
    }

    /** The samples with frame text {@code code} whose labels are exactly {@code labels}. */
    long samplesIn(String code, List<String> labels) {
        return samples(s -> s.has(code) && s.labels().equals(labels));
    }

    /** Every distinct label frame of the profile. */
    java.util.Set<String> labelFrames() {
        java.util.Set<String> all = new java.util.TreeSet<>();
        stacks.forEach(s -> all.addAll(s.labels()));
        return all;
    }

    List<Stack> stacks() {
        return stacks;
    }
}
