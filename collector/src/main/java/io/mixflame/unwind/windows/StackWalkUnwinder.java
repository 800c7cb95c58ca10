package io.mixflame.unwind.windows;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.pe.PeFormatException;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.Unwinder;

/**
 * The alternative native unwinder of PE frames: DbgHelp's StackWalk64, one step at a time, in place of mixflame's
 * own reading of {@code .pdata}/{@code .xdata} — for comparison, and for images whose unwind data mixflame reads
 * wrongly. Every address of the STACKFRAME64 is flat (leaving the frame's mode unset makes StackWalk64 treat the
 * frame address as a segment offset, and the walk goes wrong). Nothing of the target is asked of DbgHelp: its
 * callbacks answer from the walk's own state — memory from the copied stack (the thread runs again already) or the
 * process, function entries and module bases from the module map. Java frames stay with the HotSpot unwinder,
 * which comes first in the chain.
 */
public final class StackWalkUnwinder implements Unwinder {
    private static final int MACHINE_AMD64 = 0x8664;
    private static final int ADDR_MODE_FLAT = 3;
    private static final int FRAME_SIZE = 512;
    private static final int CONTEXT_SIZE = 0x4d0;
    /** CONTEXT_AMD64 | CONTROL | INTEGER. */
    private static final int CONTEXT_FLAGS_VALUE = 0x00100000 | 0x1 | 0x2;
    private static final int CONTEXT_FLAGS = 0x30;
    private static final int CONTEXT_RAX = 0x78;
    private static final int CONTEXT_RIP = 0xf8;
    /** Windows' register order (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8..r15) to DWARF numbers. */
    private static final int[] TO_DWARF = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
    /** The registers a call preserves on Windows x64: known in the caller after a step. */
    private static final boolean[] NONVOLATILE = new boolean[X64Registers.COUNT];
    private static final int ADDR_PC = 0;
    private static final int ADDR_RETURN = 16;
    private static final int ADDR_FRAME = 32;
    private static final int ADDR_STACK = 48;
    private static final int ADDRESS_MODE = 12;

    static {
        for (int r : new int[] {3, 4, 5, 6, 7, 12, 13, 14, 15}) {
            NONVOLATILE[r] = true;
        }
    }

    interface DbgHelp extends Library {
        boolean StackWalk64(int machine, Pointer process, Pointer thread, Pointer frame, Pointer context,
                            ReadMemory read, FunctionTableAccess functionTable, ModuleBase moduleBase,
                            Pointer translate);
    }

    interface ReadMemory extends Callback {
        boolean invoke(Pointer process, long address, Pointer buffer, int size, Pointer bytesRead);
    }

    interface FunctionTableAccess extends Callback {
        Pointer invoke(Pointer process, long address);
    }

    interface ModuleBase extends Callback {
        long invoke(Pointer process, long address);
    }

    private final DbgHelp dbghelp;
    private final Memory frame = new Memory(FRAME_SIZE);
    private final Memory contextBlock = new Memory(CONTEXT_SIZE + 16);
    private final Pointer context = contextBlock.align(16);
    /** One RUNTIME_FUNCTION handed to StackWalk64 at a time. */
    private final Memory function = new Memory(12);
    private final byte[] scratch = new byte[4096];
    private UnwindContext walking;
    private final ReadMemory read = this::read;
    private final FunctionTableAccess functionTable = this::functionEntry;
    private final ModuleBase moduleBase = this::moduleBase;

    /** @throws IllegalStateException when DbgHelp cannot be loaded (any system but Windows) */
    public StackWalkUnwinder() {
        try {
            this.dbghelp = Native.load("dbghelp", DbgHelp.class);
        } catch (UnsatisfiedLinkError e) {
            throw new IllegalStateException("DbgHelp's StackWalk64 is not available here: " + e.getMessage());
        }
    }

    @Override
    public boolean canUnwindFrom(UnwindContext c) {
        LoadedModule m = c.code().module();
        return m != null && m.image().unwindData() instanceof PeUnwindTable;
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext c) {
        Registers regs = c.registers();
        if (!regs.isKnown(X64Registers.RSP) || !regs.isKnown(X64Registers.RIP) || c.bounds() == null) {
            return UnwindStatus.FAILED;
        }
        frame.clear();
        contextBlock.clear();
        context.setInt(CONTEXT_FLAGS, CONTEXT_FLAGS_VALUE);
        for (int w = 0; w < TO_DWARF.length; w++) {
            context.setLong(CONTEXT_RAX + 8L * w, regs.isKnown(TO_DWARF[w]) ? regs.get(TO_DWARF[w]) : 0);
        }
        context.setLong(CONTEXT_RIP, regs.pc());
        flat(ADDR_PC, regs.pc());
        flat(ADDR_STACK, regs.sp());
        flat(ADDR_FRAME, regs.isKnown(X64Registers.RBP) ? regs.get(X64Registers.RBP) : 0);
        long pc = regs.pc();
        long sp = regs.sp();
        walking = c;
        try {
            // The first call reports the frame the context is in, the second unwinds to its caller. The second may
            // answer false after it unwound, when it cannot go on from the caller (JIT code, in no module): the
            // unwound context is still the caller's when it moved up the stack.
            if (!step()) {
                return UnwindStatus.FAILED;
            }
            if (frame.getLong(ADDR_RETURN) == 0) {
                // The frame has no caller: the thread's first.
                return UnwindStatus.COMPLETED;
            }
            boolean stepped = step();
            long newSp = context.getLong(CONTEXT_RAX + 8L * 4);
            if (!stepped && (context.getLong(CONTEXT_RIP) == pc || Long.compareUnsigned(newSp, sp) <= 0
                    || !c.bounds().contains(newSp))) {
                return UnwindStatus.FAILED;
            }
        } finally {
            walking = null;
        }
        long callerPc = context.getLong(CONTEXT_RIP);
        if (callerPc == 0) {
            return UnwindStatus.COMPLETED;
        }
        for (int w = 0; w < TO_DWARF.length; w++) {
            int r = TO_DWARF[w];
            if (NONVOLATILE[r]) {
                regs.set(r, context.getLong(CONTEXT_RAX + 8L * w));
            } else {
                regs.forget(r);
            }
        }
        regs.set(X64Registers.RIP, callerPc);
        return UnwindStatus.UNWOUND;
    }

    private boolean step() {
        return dbghelp.StackWalk64(MACHINE_AMD64, Pointer.NULL, Pointer.NULL, frame, context, read, functionTable,
                moduleBase, null);
    }

    private void flat(int address, long value) {
        frame.setLong(address, value);
        frame.setInt(address + ADDRESS_MODE, ADDR_MODE_FLAT);
    }

    private boolean read(Pointer process, long address, Pointer buffer, int size, Pointer bytesRead) {
        int done = 0;
        while (done < size) {
            int n = Math.min(size - done, scratch.length);
            int got = walking.memory().read(address + done, scratch, 0, n);
            if (got <= 0) {
                break;
            }
            buffer.write(done, scratch, 0, got);
            done += got;
            if (got < n) {
                break;
            }
        }
        if (bytesRead != null) {
            bytesRead.setInt(0, done);
        }
        return done > 0;
    }

    private Pointer functionEntry(Pointer process, long pc) {
        // A return address may lie one past its function (a call to a function that never returns ends it).
        long address = pc == walking.registers().pc() && walking.callSite() ? pc - 1 : pc;
        LoadedModule m = walking.modules().moduleAt(address);
        if (m == null || !(m.image().unwindData() instanceof PeUnwindTable table)) {
            return Pointer.NULL;
        }
        RuntimeFunction f;
        try {
            f = table.find(address - m.bias()).orElse(null);
        } catch (PeFormatException e) {
            return Pointer.NULL;
        }
        if (f == null) {
            return Pointer.NULL;
        }
        function.setInt(0, (int) f.begin());
        function.setInt(4, (int) f.end());
        function.setInt(8, (int) f.unwindInfo());
        return function;
    }

    private long moduleBase(Pointer process, long address) {
        LoadedModule m = walking.modules().moduleAt(address);
        return m == null ? 0 : m.bias();
    }
}
