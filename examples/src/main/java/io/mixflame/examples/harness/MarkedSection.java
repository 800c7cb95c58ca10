package io.mixflame.examples.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The part of a markdown file between {@value #BEGIN} and {@value #END}, which the harness owns: it replaces that
 * part and leaves the rest of the file as the people who wrote it left it.
 */
final class MarkedSection {
    static final String BEGIN = "<!-- harness:begin -->";
    static final String END = "<!-- harness:end -->";

    private MarkedSection() {
    }

    /**
     * {@code document} with the marked part replaced by {@code section}, or with the markers and the section
     * appended when it has none.
     *
     * @throws IllegalArgumentException when the markers are not one begin followed by one end
     */
    static String replace(String document, String section) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        String body = BEGIN + "\n" + section + (section.endsWith("\n") ? "" : "\n") + END;
        if (begin < 0 && end < 0) {
            return document + (document.isEmpty() || document.endsWith("\n\n") ? "" : document.endsWith("\n") ? "\n"
                    : "\n\n") + body + "\n";
        }
        if (begin < 0 || end < begin || document.indexOf(BEGIN, begin + 1) >= 0
                || document.indexOf(END, end + 1) >= 0) {
            throw new IllegalArgumentException("the file's harness markers are broken: it needs one '" + BEGIN
                    + "' line followed by one '" + END + "' line");
        }
        return document.substring(0, begin) + body + document.substring(end + END.length());
    }

    /**
     * Replaces the marked part of {@code file} in place. The new text goes to a file beside it first and is then
     * moved over it, so that an interrupted run leaves the old file whole.
     */
    static void write(Path file, String section) throws IOException {
        String updated = replace(Files.readString(file, StandardCharsets.UTF_8), section);
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(temp, updated, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
