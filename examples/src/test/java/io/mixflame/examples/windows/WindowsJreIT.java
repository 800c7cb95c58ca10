package io.mixflame.examples.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.WindowsToolchain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Windows JRE the toolchain provides runs Java under Wine: a class compiled here, on a class path given as a
 * {@code Z:} path, reports a Windows JVM and prints Windows line ends. The base the Windows end-to-end tests build on.
 */
class WindowsJreIT {
    @TempDir
    Path dir;

    @Test
    void windowsJavaRunsAClassFromAZDrivePath() throws Exception {
        WindowsToolchain wine = WindowsToolchain.require();
        Path source = dir.resolve("WhereAmI.java");
        Files.writeString(source, """
                public class WhereAmI {
                    public static void main(String[] args) {
                        System.out.println(System.getProperty("os.name").startsWith("Windows"));
                        System.out.println(System.getProperty("os.arch") + " " + System.getProperty("java.version"));
                    }
                }
                """);
        int javac = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d",
                dir.toString(), source.toString());
        assertThat(javac).isZero();

        CommandRun run = wine.runUnderWine(dir, "java", Duration.ofMinutes(3),
                List.of(wine.javaExe().toString(), "-cp", wine.windowsPath(dir), "WhereAmI"));

        assertThat(run.status()).as(run.stderr()).isZero();
        assertThat(run.stdout()).matches("true\r\namd64 17\\.[0-9.]+\r\n");
    }
}
