package io.mixflame.agent;

/**
 * The command line by which a profiled JVM starts its helper process ({@code helper --pid PID [--times] [--labels ADDRESS] OPTIONS}):
 * spelled once here for the engine that starts the helper and the command that parses it, which live in packages
 * where only the command's may depend on the engine's.
 */
public final class HelperCommandLine {
    /** The command's name. */
    public static final String COMMAND = "helper";
    /** The flag before the process id of the JVM to sample. */
    public static final String PID = "--pid";
    /** The flag that asks for each sample's time. */
    public static final String TIMES = "--times";
    /** The flag before the address of the JVM's label log's directory, in hexadecimal: label the samples. */
    public static final String LABELS = "--labels";

    private HelperCommandLine() {
    }
}
