package io.mixflame.agent;

import io.mixflame.agent.log.LogLevel;
import io.mixflame.agent.push.OptionSecrets;
import io.mixflame.image.index.ModuleIndexStore;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the boot classes hand over, inside the isolated loader. Parses the options, runs the command, and for
 * an attach writes the result to the reply file the {@code attach} tool reads. Never throws.
 */
public final class AgentEntry {
    private static final Logger LOG = LoggerFactory.getLogger(AgentEntry.class);
    private static final int MAX_SHOWN = 200;

    private AgentEntry() {
    }

    /**
     * Handles one agent invocation from {@code -javaagent} or attach, whose instrumentation weaves what
     * {@code labels} asks for.
     *
     * @param attached whether the application was already running (an attach), rather than waiting for
     *                 {@code premain} to return
     */
    public static void handle(String optionText, Instrumentation instrumentation, boolean attached) {
        if (attached) {
            JnaDispatchCache.leaveToJna();
        }
        AgentInstrumentation.set(instrumentation);
        StartupOptions.Composed composed;
        try {
            composed = StartupOptions.compose(optionText, !attached, System.getenv(), System.getProperties());
        } catch (IllegalArgumentException e) {
            LOG.error("bad options '{}': {}; profiler not started", shown(optionText), e.getMessage());
            replyToBadOptions(optionText, e.getMessage());
            return;
        }
        if (!composed.enabled()) {
            LOG.info("PYROSCOPE_AGENT_ENABLED is false and no options ask for profiling: not profiling");
            return;
        }
        for (String note : composed.notes()) {
            LOG.info(note);
        }
        handle(composed.text());
    }

    /**
     * Handles one agent invocation.
     *
     * <p>The command runs before this returns, at startup too: a profile then covers the application from its
     * first line, and starting an engine takes a bounded moment (JFR's start is the slowest, a fraction of a
     * second), never a wait on the application.
     *
     * @param optionText the agent's option string
     */
    public static void handle(String optionText) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(optionText);
        } catch (IllegalArgumentException e) {
            LOG.error("bad options '{}': {}; profiler not started", shown(optionText), e.getMessage());
            replyToBadOptions(optionText, e.getMessage());
            return;
        }
        if (options.logLevel() != null) {
            LogLevel.set(options.logLevel());
        }
        if (options.cacheDir() != null) {
            // Before the engine starts: its first walk reads libjvm's symbols.
            ModuleIndexStore.useShared(options.cacheDir().equals(AgentOptions.CACHE_OFF) ? ModuleIndexStore.DISABLED
                    : ModuleIndexStore.at(Path.of(options.cacheDir())));
        }
        JnaDispatchCache.initializeFromHostCache();
        CompilerDirective.installOnce();
        run(options);
    }

    /**
     * Runs one command for the Java API ({@code io.mixflame.api.Mixflame.execute}), in this JVM's profiler: the options
     * as an attach's (and the file {@code options=@PATH} names), never the environment's.
     *
     * @return what the command did, one line
     * @throws IllegalArgumentException for bad options, with a one-line message
     * @throws IllegalStateException    when the command failed (already profiling, not profiling), with its message
     */
    public static String execute(String optionText) {
        AgentOptions options = AgentOptions.parseWithFile(optionText);
        if (options.reply() != null) {
            throw new IllegalArgumentException("reply= is the attach tool's; the API returns the result");
        }
        if (options.logLevel() != null) {
            LogLevel.set(options.logLevel());
        }
        CommandResult result = ProfilerController.instance().execute(options);
        if (!result.ok()) {
            throw new IllegalStateException(result.message());
        }
        return result.message();
    }

    /**
     * The option text as a log line may echo it: its secrets masked, and a megabyte of options must not become a
     * megabyte of log.
     */
    static String shown(String optionText) {
        if (optionText == null) {
            return null;
        }
        String masked = OptionSecrets.masked(optionText);
        if (masked.length() <= MAX_SHOWN) {
            return masked;
        }
        return masked.substring(0, MAX_SHOWN) + "… (" + (masked.length() - MAX_SHOWN) + " more characters)";
    }

    private static void run(AgentOptions options) {
        CommandResult result = ProfilerController.instance().execute(options);
        if (options.reply() != null) {
            reply(Path.of(options.reply()), result);
        }
    }

    /** The reply file must still be answered when the options around it are bad. */
    private static void replyToBadOptions(String optionText, String message) {
        if (optionText == null) {
            return;
        }
        for (String token : optionText.split(",")) {
            if (token.startsWith("reply=")) {
                reply(Path.of(token.substring("reply=".length())), CommandResult.error("bad options: " + message));
            }
        }
    }

    private static void reply(Path path, CommandResult result) {
        String text = (result.ok() ? "ok" : "error") + "\n" + result.message() + "\n";
        try {
            Files.writeString(path, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            LOG.warn("could not answer the attach tool at {}: {}", path, e.getMessage());
        }
    }
}
