package io.mixflame.process;

import java.util.List;
import java.util.Optional;

/** Finds the writable mapping that holds a stack pointer: the bounds a walk of that stack must stay inside. */
public final class StackMapping {
    private StackMapping() {
    }

    /** The readable, writable mapping containing {@code sp}, if any. */
    public static Optional<MemoryMapping> containing(List<MemoryMapping> maps, long sp) {
        for (MemoryMapping m : maps) {
            if (m.contains(sp) && m.readable() && m.writable()) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
