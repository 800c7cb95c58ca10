package io.mixflame.report.cli;

/** Ends a command with one line of explanation and an exit status. */
final class CommandFailure extends Exception {

    /** Bad usage or input: wrong arguments, a missing, unreadable or malformed input file. */
    static final int BAD_INPUT = 2;
    /** The input was fine but the command could not finish (the output could not be written). */
    static final int FAILED = 1;

    private final int status;
    private final boolean bare;

    CommandFailure(int status, String message) {
        this(status, message, false);
    }

    private CommandFailure(int status, String message, boolean bare) {
        super(message, null, false, false);
        this.status = status;
        this.bare = bare;
    }

    /** Wrong arguments: the usage line alone says what is expected. */
    static CommandFailure usage(String usageLine) {
        return new CommandFailure(BAD_INPUT, usageLine, true);
    }

    int status() {
        return status;
    }

    /** True when the message is printed as it is, without the command's name in front. */
    boolean bare() {
        return bare;
    }
}
