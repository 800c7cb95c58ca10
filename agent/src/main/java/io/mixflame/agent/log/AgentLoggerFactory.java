package io.mixflame.agent.log;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/** One {@link AgentLogger} per name. */
final class AgentLoggerFactory implements ILoggerFactory {
    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();

    @Override
    public Logger getLogger(String name) {
        Logger logger = loggers.get(name);
        if (logger == null) {
            // Not computeIfAbsent with a constructor reference: a class the JVM would spin in the start-up.
            Logger made = new AgentLogger(name);
            logger = loggers.putIfAbsent(name, made);
            if (logger == null) {
                logger = made;
            }
        }
        return logger;
    }
}
