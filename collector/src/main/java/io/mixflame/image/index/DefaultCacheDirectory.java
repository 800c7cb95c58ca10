package io.mixflame.image.index;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where module indexes go unless the agent's {@code cachedir=} says otherwise: {@code mixflame/modules} in the
 * user's cache directory, as the project's other caches ({@code ~/.cache/mixflame/…}): {@code $XDG_CACHE_HOME}, else
 * {@code ~/.cache}; on Windows {@code %LOCALAPPDATA%}.
 */
public final class DefaultCacheDirectory {
    private DefaultCacheDirectory() {
    }

    /** The default for this process; empty when the environment names no usable home. */
    public static Optional<Path> forThisProcess() {
        return of(System.getenv(), System.getProperty("os.name", ""), System.getProperty("user.home", ""));
    }

    /** The default for this environment, operating system name and home directory. */
    public static Optional<Path> of(Map<String, String> env, String osName, String userHome) {
        try {
            if (osName.startsWith("Windows")) {
                String local = env.get("LOCALAPPDATA");
                Path base = local != null && !local.isEmpty() ? Path.of(local)
                        : userHome.isEmpty() ? null : Path.of(userHome, "AppData", "Local");
                return under(base);
            }
            String xdg = env.get("XDG_CACHE_HOME");
            // The XDG spec says a relative value is to be ignored.
            Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg)
                    : userHome.isEmpty() ? null : Path.of(userHome, ".cache");
            return under(base);
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> under(Path base) {
        return base != null && base.isAbsolute() ? Optional.of(base.resolve("mixflame").resolve("modules"))
                : Optional.empty();
    }
}
