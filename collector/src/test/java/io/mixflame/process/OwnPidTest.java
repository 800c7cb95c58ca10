package io.mixflame.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OwnPidTest {
    @Test
    void isTheProcessHandlesPid() {
        assertEquals(ProcessHandle.current().pid(), OwnPid.get());
        // Where /proc has no answer (Windows), the fallback's.
        assertEquals(ProcessHandle.current().pid(), OwnPid.fromHandle());
    }

    @Test
    void parsesOnlyPlainDecimalLinks() {
        assertEquals(4242, OwnPid.parse("4242"));
        assertEquals(-1, OwnPid.parse(""));
        assertEquals(-1, OwnPid.parse("self"));
        assertEquals(-1, OwnPid.parse("12/task"));
        assertEquals(-1, OwnPid.parse("-5"));
        assertEquals(-1, OwnPid.parse("1234567890123456789"));
    }
}
