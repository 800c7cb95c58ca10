package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A profile in the collapsed format, {@code frame;frame;… count}, root first. mixflame's header
 * ({@code # mixflame engine=… …}) and {@code # note:} lines are kept; other comments are skipped.
 */
final class CollapsedProfile {
    private static final Pattern ENGINE = Pattern.compile("engine=(\\S+)");

    /** One stack, root first, and how many samples had it. */
    record Stack(List<String> frames, long count) {
    }

    private final String header;
    private final List<String> notes;
    private final List<Stack> stacks;

    private CollapsedProfile(String header, List<String> notes, List<Stack> stacks) {
        this.header = header;
        this.notes = notes;
        this.stacks = stacks;
    }

    /** Reads a collapsed file. */
    static CollapsedProfile read(Path file) throws IOException {
        String header = null;
        List<String> notes = new ArrayList<>();
        List<Stack> stacks = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("# mixflame ")) {
                header = withoutCount(line.substring(2));
            } else if (line.startsWith("# note: ")) {
                notes.add(withoutCount(line.substring("# note: ".length())));
            } else if (!line.startsWith("#") && !line.isBlank()) {
                // Frame names may hold spaces (C++ signatures): the count is after the last one.
                int space = line.lastIndexOf(' ');
                stacks.add(new Stack(Arrays.asList(line.substring(0, space).split(";")),
                        Long.parseLong(line.substring(space + 1).trim())));
            }
        }
        return new CollapsedProfile(header, List.copyOf(notes), List.copyOf(stacks));
    }

    /** The engine the mixflame header names, or null when there is no such header. */
    String engine() {
        if (header == null) {
            return null;
        }
        Matcher m = ENGINE.matcher(header);
        return m.find() ? m.group(1) : null;
    }

    /** The {@code # note:} lines, without their prefix. */
    List<String> notes() {
        return notes;
    }

    /** The stacks, in the file's order. */
    List<Stack> stacks() {
        return stacks;
    }

    /** All samples. */
    long total() {
        return samples(s -> true);
    }

    /** Samples whose stack (root first) passes {@code test}. */
    long samples(Predicate<List<String>> test) {
        return stacks.stream().filter(s -> test.test(s.frames())).mapToLong(Stack::count).sum();
    }

    /** A test: the stack has a frame whose name, without the kind suffix, ends with {@code ending}. */
    static Predicate<List<String>> hasFrameEnding(String ending) {
        return frames -> frames.stream().anyMatch(f -> FrameKind.name(f).endsWith(ending));
    }

    /** A test: the stack has a frame whose name contains {@code part}. */
    static Predicate<List<String>> hasFrameContaining(String part) {
        return frames -> frames.stream().anyMatch(f -> f.contains(part));
    }

    private static String withoutCount(String line) {
        // mixflame ends its comment lines with " 0" so that tools that know no comments count them as nothing.
        return line.endsWith(" 0") ? line.substring(0, line.length() - 2) : line;
    }
}
