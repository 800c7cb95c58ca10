package io.mixflame.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttachCommandTest {

    @Test
    void noOptionsMeansStart() {
        assertThat(AttachCommand.commandOptions(List.of())).isEqualTo("start");
    }

    @Test
    void relativeFilesAreResolvedHereNotInTheTarget() {
        String here = Path.of("").toAbsolutePath().toString();
        assertThat(AttachCommand.commandOptions(List.of("start,file=out.html,interval=1ms")))
                .isEqualTo("start,file=" + here + "/out.html,interval=1ms");
        assertThat(AttachCommand.commandOptions(List.of("dump", "d.collapsed")))
                .isEqualTo("dump,file=" + here + "/d.collapsed");
    }

    @Test
    void replyIsReservedForTheTool() {
        assertThatThrownBy(() -> AttachCommand.commandOptions(List.of("start,reply=/tmp/x")))
                .hasMessageContaining("reply= is set by the attach tool");
    }

    @Test
    void dumpNeedsAFile() {
        assertThatThrownBy(() -> AttachCommand.commandOptions(List.of("dump")))
                .hasMessageContaining("dump needs a file");
    }

    @Test
    void unknownCommandIsAUsageError() {
        var err = new java.io.ByteArrayOutputStream();
        int status = Main.run(List.of("nope"), System.out, new java.io.PrintStream(err));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).startsWith("mixflame: unknown command 'nope'");
    }
}
