package io.mixflame.image.linux;

import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Finds the separate debug file of a module where distributions install them: by build id under
 * {@code /usr/lib/debug/.build-id/}, else by the {@code .gnu_debuglink} name beside the file, in its
 * {@code .debug} directory, or under {@code /usr/lib/debug} — the places gdb looks.
 */
public final class DebugFiles {
    private static final Path DEBUG_ROOT = Path.of("/usr/lib/debug");

    private DebugFiles() {
    }

    /** The parsed debug file of the module at {@code path}, if one is installed and readable. */
    public static Optional<ElfFile> find(String path, ElfFile module) {
        for (Path candidate : candidates(path, module)) {
            if (Files.isRegularFile(candidate) && !candidate.toString().equals(path)) {
                try {
                    return Optional.of(ElfFile.open(candidate));
                } catch (IOException | ElfFormatException e) {
                    // An unreadable debug file is as good as none.
                }
            }
        }
        return Optional.empty();
    }

    static List<Path> candidates(String path, ElfFile module) {
        List<Path> list = new ArrayList<>();
        Optional<byte[]> id = module.buildId();
        if (id.isPresent() && id.get().length > 1) {
            String hex = HexFormat.of().formatHex(id.get());
            list.add(DEBUG_ROOT.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2) + ".debug"));
        }
        Optional<String> link = module.debugLink();
        if (path.startsWith("/") && link.isPresent() && !link.get().isEmpty() && !link.get().contains("/")) {
            Path dir = Path.of(path).getParent();
            if (dir != null) {
                list.add(dir.resolve(link.get()));
                list.add(dir.resolve(".debug").resolve(link.get()));
                list.add(Path.of(DEBUG_ROOT + dir.toString()).resolve(link.get()));
            }
        }
        return list;
    }
}
