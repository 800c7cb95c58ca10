package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.TimeUnit;

/** The machine, JDK and time a report was measured on, in one sentence. */
final class MachineDescription {
    private MachineDescription() {
    }

    static String describe(Path javaHome) throws IOException, InterruptedException {
        return "Machine: " + Runtime.getRuntime().availableProcessors() + " cores (" + cpuModel() + "), Linux "
                + Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim() + "; JDK: " + jdk(javaHome) + "; "
                + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")) + ".";
    }

    private static String cpuModel() throws IOException {
        return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("CPU model unknown");
    }

    /** The first line of {@code java -version} of the JDK the workloads ran on. */
    private static String jdk(Path javaHome) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-version").redirectErrorStream(true)
                .start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return text.lines().findFirst().orElse("?").trim() + " (" + javaHome + ")";
    }
}
