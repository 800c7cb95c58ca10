package io.mixflame.unwind.pe;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.pe.PeFile;
import io.mixflame.image.windows.PeModuleImage;
import io.mixflame.process.MemoryMapping;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.chain.UnwinderChain;
import io.mixflame.unwind.WalkedStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An imaginary Windows process for walks through the production chain: one synthetic PE image written to a file
 * and read back as a {@link PeModuleImage} (its {@code .text} copied into the process's memory at the image's base),
 * a stack region, and a module map holding the image alone, executable, as {@code WindowsModuleMap} maps modules.
 */
final class PeProcessFixture {
    static final long BASE = 0x1_4000_0000L;
    static final long TEXT_RVA = 0x1000;
    static final long STACK_LOW = 0x20_0000L;
    static final long STACK_HIGH = 0x24_0000L;

    final FakeProcessMemory memory = new FakeProcessMemory().map(STACK_LOW, STACK_HIGH - STACK_LOW);
    private final ModuleMap modules;

    /**
     * @param dir       where the image's file goes
     * @param text      the code of {@code .text}, at {@link #TEXT_RVA}
     * @param functions its RUNTIME_FUNCTIONs
     */
    PeProcessFixture(Path dir, byte[] text, List<PeImageBuilder.Function> functions) {
        PeImageBuilder builder = new PeImageBuilder().imageBase(BASE);
        if (builder.section(".text", text) != TEXT_RVA) {
            throw new IllegalStateException(".text must be the first section");
        }
        builder.unwindTables(functions);
        byte[] bytes = builder.build();
        Path file = dir.resolve("test.dll");
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long end = BASE + PeFile.parse(ByteBuffer.wrap(bytes)).sizeOfImage();
        memory.write(BASE + TEXT_RVA, text);
        PeModuleImage image = new PeModuleImage(file.toString());
        modules = new FixedModuleMap(new ModuleSnapshot(
                List.of(new MemoryMapping(STACK_LOW, STACK_HIGH, true, true, false, 0, 0, ""),
                        new MemoryMapping(BASE, end, true, false, true, 0, 0, file.toString())),
                List.of(new LoadedModule(image, BASE, end, image.loadBias(BASE, 0)))), "jvm.dll");
    }

    /** Writes consecutive stack slots. */
    PeProcessFixture stack(long address, long... values) {
        for (int i = 0; i < values.length; i++) {
            memory.writeLong(address + 8L * i, values[i]);
        }
        return this;
    }

    /** A context on this process at pc and rsp, the whole stack region as its limits, for one unwinder's steps. */
    UnwindContext context(long pc, long sp) {
        UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
        context.registers().set(X64Registers.RIP, pc);
        context.registers().set(X64Registers.RSP, sp);
        context.setBounds(new StackBounds(STACK_LOW, STACK_HIGH));
        return context;
    }

    /** Walks with the production chain (no JVM) from pc and rsp, within the given stack limits. */
    WalkedStack walk(long pc, long sp, StackBounds bounds, int maxDepth) {
        UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
        context.registers().set(X64Registers.RIP, pc);
        context.registers().set(X64Registers.RSP, sp);
        context.setBounds(bounds);
        WalkedStack out = new WalkedStack();
        new NativeStackWalker(UnwinderChain.unwinders(null), maxDepth).walk(context, out);
        return out;
    }

    /** Walks with the production chain from pc and rsp on the whole stack region. */
    WalkedStack walk(long pc, long sp) {
        return walk(pc, sp, new StackBounds(STACK_LOW, STACK_HIGH), NativeStackWalker.DEFAULT_MAX_DEPTH);
    }
}
