package io.mixflame.agent;

/**
 * The outcome of one agent command, as the {@code attach} tool shows it.
 *
 * @param ok      whether the command did what it was asked
 * @param message one line for the user
 */
public record CommandResult(boolean ok, String message) {
    static CommandResult ok(String message) {
        return new CommandResult(true, message);
    }

    static CommandResult error(String message) {
        return new CommandResult(false, message);
    }
}
