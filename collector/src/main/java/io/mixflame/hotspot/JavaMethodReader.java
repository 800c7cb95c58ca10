package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Names methods from a {@code Method*}: Method → ConstMethod → ConstantPool slots for name and signature, the pool's
 * holder class for the class name, and the compressed line-number table after the bytecodes. Cached by address;
 * an entry is checked again (its ConstMethod pointer re-read) after {@value #REVALIDATE_NANOS} ns, because classes
 * unload and their metadata is reused.
 */
final class JavaMethodReader {
    private static final int CACHE_LIMIT = 65_536;
    private static final int MAX_NAME = 65_535;
    private static final int MAX_LINE_TABLE = 64 * 1024;
    private static final long REVALIDATE_NANOS = 1_000_000_000L;

    private record Cached(JavaMethod method, long constMethod, int codeSize, long checkedAt) {
    }

    private final HotSpotLayout layout;
    private final VmReader reader;
    private final Map<Long, Cached> cache = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Cached> eldest) {
            return size() > CACHE_LIMIT;
        }
    };

    JavaMethodReader(HotSpotLayout layout, VmReader reader) {
        this.layout = layout;
        this.reader = reader;
    }

    /** The method at {@code methodPtr}, or null when it does not look like a method. */
    JavaMethod read(long methodPtr) {
        if (methodPtr == 0 || (methodPtr & 7) != 0) {
            return null;
        }
        long now = System.nanoTime();
        Cached c = cache.get(methodPtr);
        try {
            if (c != null) {
                if (now - c.checkedAt() < REVALIDATE_NANOS) {
                    return c.method();
                }
                if (reader.u64(methodPtr + layout.methodConstMethod) == c.constMethod()) {
                    cache.put(methodPtr, new Cached(c.method(), c.constMethod(), c.codeSize(), now));
                    return c.method();
                }
            }
            long constMethod = reader.u64(methodPtr + layout.methodConstMethod);
            JavaMethod m = readFresh(constMethod);
            if (m != null) {
                int codeSize = reader.u16(constMethod + layout.constMethodCodeSize);
                cache.put(methodPtr, new Cached(m, constMethod, codeSize, now));
            }
            return m;
        } catch (MemoryReadException | RuntimeException e) {
            return null;
        }
    }

    /** The bytecode index of an interpreter bcp in a method's code, or -1. */
    int bci(long methodPtr, long bcp) {
        if (bcp == 0) {
            return -1;
        }
        Cached c = cache.get(methodPtr);
        if (c != null && System.nanoTime() - c.checkedAt() < REVALIDATE_NANOS) {
            long bci = bcp - (c.constMethod() + layout.constMethodSize);
            return bci >= 0 && bci < c.codeSize() ? (int) bci : -1;
        }
        try {
            long constMethod = reader.u64(methodPtr + layout.methodConstMethod);
            long codeBase = constMethod + layout.constMethodSize;
            int codeSize = reader.u16(constMethod + layout.constMethodCodeSize);
            long bci = bcp - codeBase;
            return bci >= 0 && bci < codeSize ? (int) bci : -1;
        } catch (MemoryReadException e) {
            return -1;
        }
    }

    private JavaMethod readFresh(long constMethod) throws MemoryReadException {
        HotSpotLayout l = layout;
        if (constMethod == 0 || (constMethod & 7) != 0) {
            return null;
        }
        long pool = reader.u64(constMethod + l.constMethodConstants);
        int nameIndex = reader.u16(constMethod + l.constMethodNameIndex);
        int signatureIndex = reader.u16(constMethod + l.constMethodSignatureIndex);
        int poolLength = reader.s32(pool + l.poolLength);
        if (pool == 0 || nameIndex <= 0 || signatureIndex <= 0 || nameIndex >= poolLength || signatureIndex >= poolLength) {
            return null;
        }
        String name = symbol(reader.u64(pool + l.poolSize + 8L * nameIndex));
        String signature = symbol(reader.u64(pool + l.poolSize + 8L * signatureIndex));
        long holder = reader.u64(pool + l.poolHolder);
        String holderName = holder == 0 ? "[unknown class]" : symbol(reader.u64(holder + l.klassName));
        String source = null;
        if (l.poolSourceFileIndex >= 0) {
            int index = reader.u16(pool + l.poolSourceFileIndex);
            if (index > 0 && index < poolLength) {
                source = symbol(reader.u64(pool + l.poolSize + 8L * index));
            }
        }
        return new JavaMethod(holderName, name, signature, source, lineTable(constMethod));
    }

    private String symbol(long symbol) throws MemoryReadException {
        if (symbol == 0) {
            throw new MemoryReadException(0);
        }
        int length = reader.u16(symbol + layout.symbolLength);
        if (length > MAX_NAME) {
            throw new MemoryReadException(symbol);
        }
        return reader.utf8(symbol + layout.symbolBody, length);
    }

    private int[] lineTable(long constMethod) throws MemoryReadException {
        HotSpotLayout l = layout;
        long flags = reader.field(constMethod + l.constMethodFlags, l.constMethodFlagsWidth, false);
        if ((flags & l.lineNumberTableFlag) == 0) {
            return new int[0];
        }
        int codeSize = reader.u16(constMethod + l.constMethodCodeSize);
        long table = constMethod + l.constMethodSize + codeSize;
        byte[] bytes = new byte[512];
        int got = reader.memory().read(table, bytes, 0, bytes.length);
        int[] pairs = new int[32];
        int n = 0;
        int bci = 0;
        int line = 0;
        CompressedStream s = new CompressedStream(ByteBuffer.wrap(bytes, 0, got), 0, l.unsigned5ExcludesZero);
        while (n < MAX_LINE_TABLE) {
            if (s.position() >= got - 10 && got == bytes.length) {
                // Long tables: read further and continue from the same offset.
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
                int more = reader.memory().read(table + got, bytes, got, bytes.length - got);
                int pos = s.position();
                got += more;
                s = new CompressedStream(ByteBuffer.wrap(bytes, 0, got), pos, l.unsigned5ExcludesZero);
            }
            int b = s.readByte();
            if (b == 0) {
                break;
            }
            if (b == 0xff) {
                bci += s.readSigned();
                line += s.readSigned();
            } else {
                bci += b >> 3;
                line += b & 7;
            }
            if (n + 2 > pairs.length) {
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
            }
            pairs[n++] = bci;
            pairs[n++] = line;
        }
        return Arrays.copyOf(pairs, n);
    }
}
