package io.mixflame.agent.log;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding inside the profiler's isolated loader.
 *
 * <p>slf4j-simple would do the formatting, but it takes its levels from JVM-wide system properties and its
 * configuration file from the thread's context class loader, which is the application's: the profiler's
 * {@code log=} option would leak into the application's logging and the application's file into ours.
 */
public final class AgentLoggerProvider implements SLF4JServiceProvider {
    private final ILoggerFactory factory = new AgentLoggerFactory();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        // Nothing to read: the level comes from the agent's options.
    }
}
