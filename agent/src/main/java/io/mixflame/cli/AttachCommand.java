package io.mixflame.cli;

import io.mixflame.agent.AgentOptions;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * {@code attach PID OPTIONS|stop|dump FILE|status}: loads this jar into a running JVM as an agent with the
 * given command, then prints the one-line answer the agent writes back to a reply file.
 */
final class AttachCommand {
    static final String USAGE = "usage: attach PID [OPTIONS] | attach PID stop | attach PID dump FILE | attach PID status";

    private AttachCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.size() > 3) {
            err.println(USAGE);
            return 2;
        }
        String pid = args.get(0);
        if (!pid.matches("[0-9]{1,18}")) {
            err.println("mixflame attach: '" + pid + "' is not a process id");
            return 2;
        }
        String options;
        try {
            options = commandOptions(args.subList(1, args.size()));
            AgentOptions.parseWithFile(options);
        } catch (IllegalArgumentException e) {
            err.println("mixflame attach: " + e.getMessage());
            return 2;
        }
        String refusal = AttachTarget.refusal(Long.parseLong(pid));
        if (refusal != null) {
            err.println("mixflame attach: " + refusal);
            return 1;
        }
        Path reply = null;
        try {
            reply = Files.createTempFile("mixflame-reply-", ".txt");
            File jar = ownJar();
            ByteBuddyAgent.attach(jar, pid, options + ",reply=" + reply);
            List<String> lines = Files.readAllLines(reply, StandardCharsets.UTF_8);
            if (lines.size() < 2) {
                err.println("mixflame attach: the agent in " + pid + " did not answer (see that process's stderr)");
                return 1;
            }
            boolean ok = lines.get(0).equals("ok");
            (ok ? out : err).println(lines.get(1));
            return ok ? 0 : 1;
        } catch (IOException | RuntimeException e) {
            err.println("mixflame attach: could not attach to " + pid + ": " + rootMessage(e));
            return 1;
        } finally {
            if (reply != null) {
                try {
                    Files.deleteIfExists(reply);
                } catch (IOException ignored) {
                    // a stray empty file in the temp directory is all that is left
                }
            }
        }
    }

    /** The options sent to the agent; relative files are made absolute here, not in the target's directory. */
    static String commandOptions(List<String> words) {
        if (words.isEmpty()) {
            return "start";
        }
        String first = words.get(0);
        if (first.equals("dump")) {
            if (words.size() != 2) {
                throw new IllegalArgumentException("dump needs a file: attach PID dump FILE");
            }
            return "dump,file=" + Path.of(words.get(1)).toAbsolutePath();
        }
        if (words.size() != 1) {
            throw new IllegalArgumentException("options are one comma-separated word; " + USAGE);
        }
        StringBuilder sb = new StringBuilder();
        for (String token : first.split(",")) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            if (token.startsWith("file=")) {
                sb.append("file=").append(Path.of(token.substring(5)).toAbsolutePath());
            } else if (token.startsWith("reply=")) {
                throw new IllegalArgumentException("reply= is set by the attach tool itself");
            } else {
                sb.append(token);
            }
        }
        return sb.toString();
    }

    /** The jar the tool runs from, as its boot class recorded it. */
    private static File ownJar() {
        String path = System.getProperty("mixflame.jar");
        if (path == null) {
            throw new IllegalStateException("run the tool as java -jar mixflame.jar");
        }
        return new File(path);
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getMessage() != null ? c.getMessage() : c.toString();
    }
}
