package io.mixflame.image.dwarf;

import io.mixflame.process.MemoryReadException;
import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFormatException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A DWARF expression from call frame information, evaluated on a small bounded stack machine. Compilers emit
 * these where a plain "register + offset" rule cannot say where the caller's frame is: the PLT stubs, the signal
 * return trampoline (whose caller's registers are in the signal context on the stack), stack realignment.
 */
public final class DwarfExpression {
    private static final int MAX_STEPS = 1_000;
    private static final int MAX_DEPTH = 64;

    private final byte[] code;

    public DwarfExpression(byte[] code) {
        this.code = code.clone();
    }

    /** Thrown when an expression cannot be evaluated here: an unknown register, an unreadable address, bad code. */
    public static final class EvaluationException extends Exception {
        private static final long serialVersionUID = 1L;

        EvaluationException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Runs the expression.
     *
     * @param in the frame's registers and where {@code DW_OP_deref} reads
     * @param initial   pushed before the first operation (the CFA, for register rules), or null for nothing
     */
    public long evaluate(ExpressionInputs in, Long initial) throws EvaluationException {
        long[] stack = new long[MAX_DEPTH];
        int sp = 0;
        if (initial != null) {
            stack[sp++] = initial;
        }
        ByteCursor c = new ByteCursor(ByteBuffer.wrap(code), 0, code.length);
        int steps = 0;
        try {
            while (!c.atEnd()) {
                if (++steps > MAX_STEPS) {
                    throw new EvaluationException("expression runs too long");
                }
                int op = c.u8();
                if (op >= 0x30 && op <= 0x4f) {
                    sp = push(stack, sp, op - 0x30);
                    continue;
                }
                if (op >= 0x70 && op <= 0x8f) {
                    sp = push(stack, sp, register(in, op - 0x70) + c.sleb128());
                    continue;
                }
                switch (op) {
                    case 0x03 -> sp = push(stack, sp, c.u64());
                    case 0x06 -> {
                        need(sp, 1);
                        stack[sp - 1] = in.readLong(stack[sp - 1]);
                    }
                    case 0x08 -> sp = push(stack, sp, c.u8());
                    case 0x09 -> sp = push(stack, sp, (byte) c.u8());
                    case 0x0a -> sp = push(stack, sp, c.u16());
                    case 0x0b -> sp = push(stack, sp, c.s16());
                    case 0x0c -> sp = push(stack, sp, c.u32());
                    case 0x0d -> sp = push(stack, sp, c.s32());
                    case 0x0e, 0x0f -> sp = push(stack, sp, c.u64());
                    case 0x10 -> sp = push(stack, sp, c.uleb128());
                    case 0x11 -> sp = push(stack, sp, c.sleb128());
                    case 0x12 -> {
                        need(sp, 1);
                        sp = push(stack, sp, stack[sp - 1]);
                    }
                    case 0x13 -> {
                        need(sp, 1);
                        sp--;
                    }
                    case 0x14 -> {
                        need(sp, 2);
                        sp = push(stack, sp, stack[sp - 2]);
                    }
                    case 0x15 -> {
                        int index = c.u8();
                        need(sp, index + 1);
                        sp = push(stack, sp, stack[sp - 1 - index]);
                    }
                    case 0x16 -> {
                        need(sp, 2);
                        long t = stack[sp - 1];
                        stack[sp - 1] = stack[sp - 2];
                        stack[sp - 2] = t;
                    }
                    case 0x17 -> {
                        need(sp, 3);
                        long t = stack[sp - 1];
                        stack[sp - 1] = stack[sp - 2];
                        stack[sp - 2] = stack[sp - 3];
                        stack[sp - 3] = t;
                    }
                    case 0x19 -> {
                        need(sp, 1);
                        stack[sp - 1] = Math.abs(stack[sp - 1]);
                    }
                    case 0x1f -> {
                        need(sp, 1);
                        stack[sp - 1] = -stack[sp - 1];
                    }
                    case 0x20 -> {
                        need(sp, 1);
                        stack[sp - 1] = ~stack[sp - 1];
                    }
                    case 0x23 -> {
                        need(sp, 1);
                        stack[sp - 1] += c.uleb128();
                    }
                    case 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27,
                         0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e -> {
                        need(sp, 2);
                        long b = stack[--sp];
                        long a = stack[sp - 1];
                        stack[sp - 1] = binary(op, a, b);
                    }
                    case 0x28 -> {
                        need(sp, 1);
                        int offset = c.s16();
                        if (stack[--sp] != 0) {
                            c.seek(c.position() + offset);
                        }
                    }
                    case 0x2f -> {
                        int offset = c.s16();
                        c.seek(c.position() + offset);
                    }
                    case 0x92 -> {
                        int reg = (int) c.uleb128();
                        sp = push(stack, sp, register(in, reg) + c.sleb128());
                    }
                    case 0x96 -> {
                        // DW_OP_nop
                    }
                    default -> throw new EvaluationException("unsupported DWARF operation 0x" + Integer.toHexString(op));
                }
            }
        } catch (ElfFormatException e) {
            throw new EvaluationException("malformed expression: " + e.getMessage());
        } catch (MemoryReadException e) {
            throw new EvaluationException(e.getMessage());
        }
        if (sp == 0) {
            throw new EvaluationException("expression left nothing on the stack");
        }
        return stack[sp - 1];
    }

    private static long binary(int op, long a, long b) throws EvaluationException {
        return switch (op) {
            case 0x1a -> a & b;
            case 0x1b -> {
                if (b == 0) {
                    throw new EvaluationException("division by zero");
                }
                yield a / b;
            }
            case 0x1c -> a - b;
            case 0x1d -> {
                if (b == 0) {
                    throw new EvaluationException("modulo by zero");
                }
                yield Long.remainderUnsigned(a, b);
            }
            case 0x1e -> a * b;
            case 0x21 -> a | b;
            case 0x22 -> a + b;
            case 0x24 -> a << b;
            case 0x25 -> a >>> b;
            case 0x26 -> a >> b;
            case 0x27 -> a ^ b;
            case 0x29 -> a == b ? 1 : 0;
            case 0x2a -> a >= b ? 1 : 0;
            case 0x2b -> a > b ? 1 : 0;
            case 0x2c -> a <= b ? 1 : 0;
            case 0x2d -> a < b ? 1 : 0;
            default -> a != b ? 1 : 0;
        };
    }

    private static long register(ExpressionInputs in, int reg) throws EvaluationException {
        if (!in.isKnown(reg)) {
            throw new EvaluationException("register " + reg + " is not known in this frame");
        }
        return in.register(reg);
    }

    private static int push(long[] stack, int sp, long value) throws EvaluationException {
        if (sp >= MAX_DEPTH) {
            throw new EvaluationException("expression stack overflow");
        }
        stack[sp] = value;
        return sp + 1;
    }

    private static void need(int sp, int n) throws EvaluationException {
        if (sp < n) {
            throw new EvaluationException("expression stack underflow");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DwarfExpression other && Arrays.equals(code, other.code);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(code);
    }
}
