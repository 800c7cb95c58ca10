package io.mixflame.unwind.pe;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.pe.PeFile;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import java.util.Arrays;
import java.util.List;

/**
 * A loaded PE image with one or more functions, its code copied into a fake process's memory, a stack region, and
 * a {@link PeUnwindStep} over them; the image's table is read back through the production reader.
 */
final class PeUnwindFixture {
    static final long BASE = 0x1_8000_0000L;
    static final long TEXT_RVA = 0x1000;
    static final long STACK_LOW = 0x10_0000L;
    static final long STACK_HIGH = 0x14_0000L;
    static final long NOP = 0x90;

    final FakeProcessMemory memory = new FakeProcessMemory().map(STACK_LOW, STACK_HIGH - STACK_LOW);
    final PeUnwindStep step = new PeUnwindStep(memory::readLong, new StackBounds(STACK_LOW, STACK_HIGH));
    final byte[] text = new byte[0x400];
    private PeUnwindTable table;

    PeUnwindFixture() {
        Arrays.fill(text, (byte) NOP);
    }

    /** Places code bytes at an RVA in .text (call before {@link #load}). */
    PeUnwindFixture code(long rva, int... bytes) {
        for (int i = 0; i < bytes.length; i++) {
            text[(int) (rva - TEXT_RVA) + i] = (byte) bytes[i];
        }
        return this;
    }

    /** Lays out the image with these functions and maps its code. */
    PeUnwindFixture load(PeImageBuilder builder, List<PeImageBuilder.Function> functions) {
        long textRva = builder.section(".text", text);
        if (textRva != TEXT_RVA) {
            throw new IllegalStateException(".text must be the first section");
        }
        builder.unwindTables(functions);
        table = PeUnwindTable.read(PeFile.parse(builder.imageBase(BASE).buildBuffer()));
        memory.write(BASE + TEXT_RVA, text);
        return this;
    }

    /** One function [begin, end) with the given unwind info. */
    PeUnwindFixture load(long begin, long end, byte[] unwindInfo) {
        return load(new PeImageBuilder(), List.of(new PeImageBuilder.Function(begin, end, unwindInfo)));
    }

    PeUnwindFixture stack(long address, long... values) {
        for (int i = 0; i < values.length; i++) {
            memory.writeLong(address + 8L * i, values[i]);
        }
        return this;
    }

    /** Unwinds a frame at {@code pcRva} with the function looked up in the table, as a walker would. */
    PeUnwindResult unwind(long pcRva, Registers regs) {
        regs.set(X64Registers.RIP, BASE + pcRva);
        RuntimeFunction entry = table.find(pcRva).orElse(null);
        UnwindInfo info = entry == null ? null : table.unwindInfo(entry);
        return step.unwind(BASE, entry, info, regs, false);
    }

    static Registers regs(long sp) {
        Registers r = new Registers();
        r.set(X64Registers.RSP, sp);
        return r;
    }
}
