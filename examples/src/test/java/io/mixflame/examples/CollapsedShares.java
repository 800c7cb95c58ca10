package io.mixflame.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Offset;

/**
 * Reads a collapsed profile and counts the samples whose stack holds a frame with a given name ending; its notes say
 * how far the engine's counts clump ({@link CountClumping}), which the share margins take into account.
 */
public final class CollapsedShares {
    private final List<String> stackLines;
    private final CountClumping clumping;

    private CollapsedShares(List<String> stackLines, CountClumping clumping) {
        this.stackLines = stackLines;
        this.clumping = clumping;
    }

    public static CollapsedShares read(Path file) throws IOException {
        return read(List.of(file));
    }

    /** The samples of several profiles of one workload (periods of one run) taken together. */
    public static CollapsedShares read(List<Path> files) throws IOException {
        List<String> lines = new java.util.ArrayList<>();
        CountClumping clumping = new CountClumping();
        for (Path file : files) {
            for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (l.startsWith("#")) {
                    clumping.add(l);
                } else if (!l.isBlank()) {
                    lines.add(l);
                }
            }
        }
        return new CollapsedShares(lines, clumping);
    }

    /** How far the counts of the profiles read clump, as their engines' notes said. */
    public CountClumping clumping() {
        return clumping;
    }

    /** Samples of stacks with a frame whose method name (type suffix removed) ends with {@code ending}. */
    /** The samples with a frame named exactly {@code name}, such as {@code [unknown]}. */
    public long samplesWithFrame(String name) {
        return samplesWith(frame -> frame.equals(name));
    }

    /** The samples with a frame whose name starts with {@code prefix}. */
    public long samplesWithFrameStarting(String prefix) {
        return samplesWith(frame -> frame.startsWith(prefix));
    }

    private long samplesWith(java.util.function.Predicate<String> frameTest) {
        long total = 0;
        for (String line : stackLines) {
            int space = line.lastIndexOf(' ');
            for (String frame : line.substring(0, space).split(";")) {
                if (frameTest.test(frame)) {
                    total += Long.parseLong(line.substring(space + 1));
                    break;
                }
            }
        }
        return total;
    }

    public long samplesWithFrameEnding(String ending) {
        long total = 0;
        for (String line : stackLines) {
            int space = line.lastIndexOf(' ');
            for (String frame : line.substring(0, space).split(";")) {
                String name = frame.replaceFirst("_\\[.\\]$", "");
                if (name.endsWith(ending)) {
                    total += Long.parseLong(line.substring(space + 1));
                    break;
                }
            }
        }
        return total;
    }

    /**
     * How far a share measured over {@code samples} samples may stray from the true {@code share} by chance alone:
     * four binomial standard errors, which chance exceeds about once in 16 000 tries. A fixed margin is either too
     * tight for the few samples a slow platform takes (Wine: some 900 in 15 s at 10 ms, where 3 points is two
     * standard errors) or too loose for many.
     */
    public static Offset<Double> chanceMargin(double share, double samples) {
        return Assertions.within(4 * Math.sqrt(share * (1 - share) / samples));
    }

    /**
     * How many samples a share test needs for its {@link #chanceMargin} to be at most {@code margin} whatever the
     * share (the widest is at one half): the count a test collects before it judges, rather than a count it expects
     * from a fixed duration, which only a fast enough machine gives.
     */
    public static long samplesForMargin(double margin) {
        return (long) Math.ceil(16 * 0.25 / (margin * margin));
    }

    /**
     * Asserts the {@code cpu} example's split: alpha, beta and gamma at 50, 30 and 20% of their samples, each within
     * {@link #chanceMargin} of its share.
     */
    public void assertCpuSplit() {
        assertCpuSplit(clumping);
    }

    /**
     * Asserts the {@code cpu} example's split as {@link #assertCpuSplit()} does, with margins from the independent
     * samples the counts are worth where the engine said they clump.
     */
    public void assertCpuSplit(CountClumping clumping) {
        long alpha = samplesWithFrameEnding("alpha");
        long beta = samplesWithFrameEnding("beta");
        long gamma = samplesWithFrameEnding("gamma");
        double all = alpha + beta + gamma;
        double samples = clumping.samples(all);
        String counted = clumping.clump() == 1 ? "" : String.format(" (of %d counts, %.2f in an interval's sample on "
                + "average, up to %d)", (long) all, clumping.clump(), clumping.most());
        Assertions.assertThat(alpha / all).as("alpha share" + counted).isCloseTo(0.50, chanceMargin(0.50, samples));
        Assertions.assertThat(beta / all).as("beta share" + counted).isCloseTo(0.30, chanceMargin(0.30, samples));
        Assertions.assertThat(gamma / all).as("gamma share" + counted).isCloseTo(0.20, chanceMargin(0.20, samples));
    }

    /** The samples in alpha, beta and gamma: those {@link #assertCpuSplit} judges. */
    public long cpuSplitSamples() {
        return samplesWithFrameEnding("alpha") + samplesWithFrameEnding("beta") + samplesWithFrameEnding("gamma");
    }

    /** The independent samples {@link #cpuSplitSamples} are worth, by the profiles' own notes. */
    public long independentCpuSplitSamples() {
        return (long) clumping.samples(cpuSplitSamples());
    }

    public long totalSamples() {
        return stackLines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
