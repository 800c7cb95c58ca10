package io.mixflame.agent.log;

import java.io.PrintStream;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * Writes one line per message to the process's stderr, prefixed {@code [mixflame]}. Stack traces are written
 * only at debug level: a user reads one line per problem.
 */
final class AgentLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    AgentLogger(String name) {
        this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
        return LogLevel.enabled(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return LogLevel.enabled(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return LogLevel.enabled(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return LogLevel.enabled(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return LogLevel.enabled(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                                               Throwable throwable) {
        String message = MessageFormatter.basicArrayFormat(pattern, arguments);
        StringBuilder line = new StringBuilder("[mixflame] ").append(level).append(' ').append(message);
        if (throwable != null && !LogLevel.enabled(Level.DEBUG)) {
            line.append(": ").append(throwable);
        }
        PrintStream err = System.err;
        err.println(line);
        if (throwable != null && LogLevel.enabled(Level.DEBUG)) {
            throwable.printStackTrace(err);
        }
    }
}
