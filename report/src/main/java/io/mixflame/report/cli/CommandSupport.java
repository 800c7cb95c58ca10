package io.mixflame.report.cli;

import io.mixflame.profile.Profile;
import io.mixflame.report.AtomicFileWriter;
import io.mixflame.report.IOConsumer;
import io.mixflame.report.ProfileFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What the report commands share: reading inputs, writing outputs, and turning failures into one line. */
final class CommandSupport {

    private CommandSupport() {
    }

    /** Runs a command body, printing a failure as {@code mixflame NAME: message} and returning its status. */
    static int run(String command, PrintStream err, Body body) {
        try {
            return body.run();
        } catch (CommandFailure f) {
            err.println(f.bare() ? f.getMessage() : "mixflame " + command + ": " + f.getMessage());
            return f.status();
        } catch (RuntimeException e) {
            // A bug of ours; still one line rather than a stack trace in the user's terminal.
            err.println("mixflame " + command + ": internal error: " + e);
            return CommandFailure.FAILED;
        }
    }

    /** A command body that may end in a {@link CommandFailure}. */
    interface Body {
        int run() throws CommandFailure;
    }

    /**
     * Reads a profile, printing each skipped malformed line as {@code mixflame NAME: FILE line N: why}.
     *
     * @throws CommandFailure when the file cannot be read, or when no line of it could be read as a stack
     */
    static Profile readProfile(String command, String file, PrintStream err) throws CommandFailure {
        List<String> warnings = new ArrayList<>();
        Profile profile;
        try {
            profile = ProfileFiles.read(path(file), warnings::add);
        } catch (IOException e) {
            throw new CommandFailure(CommandFailure.BAD_INPUT, describe(e));
        }
        if (profile.stacks().isEmpty() && !warnings.isEmpty()) {
            // Nothing usable: one error says more than a screenful of warnings.
            String more = warnings.size() > 1 ? " (and " + (warnings.size() - 1) + " more malformed lines)" : "";
            throw new CommandFailure(CommandFailure.BAD_INPUT,
                    file + ": no stacks could be read; " + warnings.get(0) + more);
        }
        for (String warning : warnings) {
            err.println("mixflame " + command + ": " + file + " " + warning);
        }
        return profile;
    }

    /**
     * Writes an output file atomically; should the command be interrupted meanwhile, the temporary file is
     * deleted on the way out ({@link AtomicFileWriter#deleteUnfinishedOnExit}).
     *
     * @throws CommandFailure status 2 when the output's directory does not exist, 1 when writing fails
     */
    static void writeFile(String file, IOConsumer<OutputStream> body) throws CommandFailure {
        Path path = path(file);
        Path dir = path.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new CommandFailure(CommandFailure.BAD_INPUT, file + ": directory " + dir + " does not exist");
        }
        AtomicFileWriter.deleteUnfinishedOnExit();
        try {
            AtomicFileWriter.write(path, body);
        } catch (IOException e) {
            throw new CommandFailure(CommandFailure.FAILED, "could not write " + describe(e));
        }
    }

    static Path path(String file) throws CommandFailure {
        try {
            return Path.of(file);
        } catch (InvalidPathException e) {
            throw new CommandFailure(CommandFailure.BAD_INPUT, "'" + file + "' is not a valid path: " + e.getReason());
        }
    }

    /** One line about a file failure; the JDK's messages for these are just the bare path. */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException f && f.getReason() == null) {
            return f.getFile() + ": no such file";
        }
        if (e instanceof AccessDeniedException f && f.getReason() == null) {
            return f.getFile() + ": permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() == null) {
            return f.getFile() + ": cannot be accessed";
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.toString() : message.replace('\n', ' ');
    }
}
