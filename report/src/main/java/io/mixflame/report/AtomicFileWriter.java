package io.mixflame.report;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes a file so that nobody ever reads half of it: the content goes to a temporary file next to the
 * target ({@code .name.tmp-XXXXXXXX}), is forced to disk, and is then renamed over the target. If anything
 * fails, the temporary file is deleted and the target is left as it was.
 */
public final class AtomicFileWriter {

    // Keeps ".name.tmp-XXXXXXXX" within the usual 255-byte limit on file names.
    private static final int MAX_NAME_IN_TEMP = 200;
    // Writes in progress at once are few (one per command); past this many, a temporary file is still deleted
    // on failure, only not by the exit hook.
    private static final int MAX_UNFINISHED = 64;

    private static final Set<Path> UNFINISHED = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean DELETE_ON_EXIT = new AtomicBoolean();

    private AtomicFileWriter() {
    }

    /**
     * From now on, temporary files of writes still in progress when the JVM exits (Ctrl-C, SIGTERM,
     * System.exit) are deleted by a shutdown hook, so no hidden {@code .name.tmp-*} file is left behind.
     * Meant for command-line tools; not for code that itself writes from a shutdown hook (the agent's profile
     * at exit), since hooks run in no set order and this one would delete that file while it is written.
     * Calling it again does nothing.
     */
    public static void deleteUnfinishedOnExit() {
        if (DELETE_ON_EXIT.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(
                    new Thread(AtomicFileWriter::deleteUnfinished, "mixflame-delete-unfinished-writes"));
        }
    }

    private static void deleteUnfinished() {
        for (Path temp : UNFINISHED) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException | RuntimeException e) {
                // Exiting: nobody is left to tell, and the other files are still worth deleting.
            }
        }
    }

    /**
     * Replaces {@code target} with what {@code body} writes. The stream handed to {@code body} is buffered;
     * {@code body} need not close it (closing it only flushes). Parent directories are not created.
     *
     * @throws NoSuchFileException when the target's directory does not exist
     * @throws IOException         when creating, writing, syncing or renaming fails, with a one-line message
     *                             {@code TARGET: what failed: why}; or as thrown by {@code body}
     */
    public static void write(Path target, IOConsumer<OutputStream> body) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(target.toString(), null, "directory " + dir + " does not exist");
        }
        if (Files.isDirectory(absolute)) {
            throw new FileSystemException(target.toString(), null, "is a directory");
        }
        String name = absolute.getFileName().toString();
        if (name.length() > MAX_NAME_IN_TEMP) {
            name = name.substring(0, MAX_NAME_IN_TEMP);
        }

        Path temp = null;
        boolean registered = false;
        try {
            FileChannel channel = null;
            while (channel == null) {
                temp = dir.resolve(String.format(".%s.tmp-%08x", name, ThreadLocalRandom.current().nextInt()));
                try {
                    // Not Files.createTempFile: its owner-only permissions would end up on the target.
                    channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    registered = DELETE_ON_EXIT.get() && UNFINISHED.size() < MAX_UNFINISHED && UNFINISHED.add(temp);
                } catch (FileAlreadyExistsException e) {
                    temp = null; // taken by another writer; draw another name
                } catch (IOException e) {
                    temp = null;
                    throw failure(target, "cannot create a file in " + dir, e);
                }
            }
            try (FileChannel ch = channel;
                 OutputStream out = new BufferedOutputStream(
                         new FailureNamingStream(Channels.newOutputStream(ch), target), 64 * 1024)) {
                body.accept(new NonClosingOutputStream(out));
                out.flush();
                try {
                    ch.force(true);
                } catch (IOException e) {
                    throw failure(target, "cannot sync it to disk", e);
                }
            }
            try {
                move(temp, absolute);
            } catch (IOException e) {
                throw failure(target, "cannot rename the finished file to it", e);
            }
        } catch (Throwable t) {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException e) {
                    t.addSuppressed(e);
                }
            }
            throw t;
        } finally {
            if (registered) {
                UNFINISHED.remove(temp);
            }
        }
        syncDirectory(dir);
    }

    /**
     * One line saying which file could not be written and why: the JDK's file exceptions name the temporary
     * file, which the user never asked for, and often carry no reason.
     */
    private static IOException failure(Path target, String what, IOException e) {
        IOException described = new FileSystemException(target.toString(), null, what + ": " + reason(e));
        described.initCause(e);
        return described;
    }

    private static String reason(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT);
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException) {
            return "refused by the file system";
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName()
                : message.replace('\n', ' ').toLowerCase(Locale.ROOT);
    }

    /** Names the target in the failures of writing the temporary file; {@code body} sees those only. */
    private static final class FailureNamingStream extends FilterOutputStream {
        private final Path target;

        FailureNamingStream(OutputStream out, Path target) {
            super(out);
            this.target = target;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw failure(target, "cannot write it", e);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw failure(target, "cannot write it", e);
            }
        }
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            // Still a single rename on the file systems that refuse ATOMIC_MOVE's guarantee, not a copy.
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Makes the rename itself durable where the platform allows; failing to is not worth failing the write. */
    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            // Windows cannot open a directory as a channel; the file is written either way.
        }
    }
}
