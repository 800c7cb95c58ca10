package io.mixflame.hotspot;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.process.MemoryReadException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Names methods from a {@code Method*}: Method → ConstMethod → ConstantPool slots for name and signature, the pool's
 * holder class for the class name, and the compressed line-number table after the bytecodes. Cached by address;
 * an entry is checked again (its ConstMethod pointer re-read) after {@value #REVALIDATE_NANOS} ns, because classes
 * unload and their metadata is reused.
 *
 * <p>A sample is walked a moment after it was taken, and its class may have been unloaded meanwhile: the method's
 * metadata and the symbols of its names are then freed, and possibly already reused. So a name is only taken when
 * the method still looks alive: its symbols well-formed and still referenced, the method still in its class's method
 * array, and the pointers that led to the names the same after the names were read as before. A method that fails
 * these checks is {@link JavaMethod#UNLOADED}, never a name made of whatever the memory holds now.
 */
final class JavaMethodReader {
    private static final int CACHE_LIMIT = 65_536;
    private static final int MAX_NAME = 65_535;
    private static final int MAX_LINE_TABLE = 64 * 1024;
    private static final long REVALIDATE_NANOS = 1_000_000_000L;
    /** A class file holds at most 65 535 methods. */
    private static final int MAX_METHODS = 65_535;
    private static final int METHODS_PER_READ = 512;
    private static final String METHOD_HANDLE = "java/lang/invoke/MethodHandle";

    /** A method named, with what proves it still the same; checked again in place, without allocating. */
    private static final class Cached {
        final JavaMethod method;
        final long constMethod;
        final int codeSize;
        long checkedAt;

        Cached(JavaMethod method, long constMethod, int codeSize, long checkedAt) {
            this.method = method;
            this.constMethod = constMethod;
            this.codeSize = codeSize;
            this.checkedAt = checkedAt;
        }
    }

    private final HotSpotLayout layout;
    private final VmReader reader;
    private final LongKeyedCache<Cached> cache = new LongKeyedCache<>(CACHE_LIMIT);

    JavaMethodReader(HotSpotLayout layout, VmReader reader) {
        this.layout = layout;
        this.reader = reader;
    }

    /**
     * The method at {@code methodPtr}; {@link JavaMethod#UNLOADED} when it was a method whose class has been unloaded
     * (or whose metadata is no longer consistent); null when it does not look like a method at all.
     */
    JavaMethod read(long methodPtr) {
        if (methodPtr == 0 || (methodPtr & 7) != 0) {
            return null;
        }
        long now = System.nanoTime();
        Cached c = cache.get(methodPtr);
        long constMethod;
        try {
            if (c != null && now - c.checkedAt < REVALIDATE_NANOS) {
                return c.method;
            }
            constMethod = reader.readLong(methodPtr + layout.methodConstMethod);
        } catch (MemoryReadException e) {
            return c == null ? null : JavaMethod.UNLOADED;
        }
        if (c != null && constMethod == c.constMethod) {
            c.checkedAt = now;
            return c.method;
        }
        if (constMethod == 0 || (constMethod & 7) != 0) {
            return c == null ? null : JavaMethod.UNLOADED;
        }
        try {
            JavaMethod m = readFresh(methodPtr, constMethod);
            if (m == null) {
                return JavaMethod.UNLOADED;
            }
            int codeSize = reader.u16(constMethod + layout.constMethodCodeSize);
            cache.put(methodPtr, new Cached(m, constMethod, codeSize, now));
            return m;
        } catch (MemoryReadException | RuntimeException e) {
            return JavaMethod.UNLOADED;
        }
    }

    /** The bytecode index of an interpreter bcp in a method's code, or -1. */
    int bci(long methodPtr, long bcp) {
        if (bcp == 0) {
            return -1;
        }
        Cached c = cache.get(methodPtr);
        if (c != null && System.nanoTime() - c.checkedAt < REVALIDATE_NANOS) {
            long bci = bcp - (c.constMethod + layout.constMethodSize);
            return bci >= 0 && bci < c.codeSize ? (int) bci : -1;
        }
        try {
            long constMethod = reader.readLong(methodPtr + layout.methodConstMethod);
            long codeBase = constMethod + layout.constMethodSize;
            int codeSize = reader.u16(constMethod + layout.constMethodCodeSize);
            long bci = bcp - codeBase;
            return bci >= 0 && bci < codeSize ? (int) bci : -1;
        } catch (MemoryReadException e) {
            return -1;
        }
    }

    /** The method, or null when its metadata is not that of a live method. */
    private JavaMethod readFresh(long methodPtr, long constMethod) throws MemoryReadException {
        HotSpotLayout l = layout;
        long pool = reader.readLong(constMethod + l.constMethodConstants);
        int nameIndex = reader.u16(constMethod + l.constMethodNameIndex);
        int signatureIndex = reader.u16(constMethod + l.constMethodSignatureIndex);
        if (pool == 0 || (pool & 7) != 0) {
            return null;
        }
        int poolLength = reader.s32(pool + l.poolLength);
        if (nameIndex <= 0 || signatureIndex <= 0 || nameIndex >= poolLength || signatureIndex >= poolLength) {
            return null;
        }
        long holder = reader.readLong(pool + l.poolHolder);
        if (holder == 0 || (holder & 7) != 0) {
            return null;
        }
        long holderSymbol = reader.readLong(holder + l.klassName);
        String holderName = symbol(holderSymbol);
        // MethodHandle's linkTo*/invokeBasic are made by the JVM and kept apart from the class's methods; the class
        // is the boot loader's and never unloads.
        if (!holderName.equals(METHOD_HANDLE) && !inMethodsOf(holder, methodPtr)) {
            return null;
        }
        String name = symbol(reader.readLong(pool + l.poolSize + 8L * nameIndex));
        String signature = symbol(reader.readLong(pool + l.poolSize + 8L * signatureIndex));
        String source = null;
        if (l.poolSourceFileIndex >= 0) {
            int index = reader.u16(pool + l.poolSourceFileIndex);
            if (index > 0 && index < poolLength) {
                source = symbol(reader.readLong(pool + l.poolSize + 8L * index));
            }
        }
        int[] lines = lineTable(constMethod);
        // Read again after the names: a class unloaded while they were read leaves these pointers changed.
        if (reader.readLong(methodPtr + l.methodConstMethod) != constMethod
                || reader.readLong(constMethod + l.constMethodConstants) != pool
                || reader.readLong(pool + l.poolHolder) != holder
                || reader.readLong(holder + l.klassName) != holderSymbol
                || !referenced(holderSymbol)) {
            return null;
        }
        return new JavaMethod(holderName, name, signature, source, lines);
    }

    /**
     * Whether the class's method array still holds the method: the link back from class to method that a freed or
     * reused Method does not have.
     */
    private boolean inMethodsOf(long klass, long methodPtr) throws MemoryReadException {
        HotSpotLayout l = layout;
        if (l.instanceKlassMethods < 0) {
            return true;
        }
        long array = reader.readLong(klass + l.instanceKlassMethods);
        if (array == 0 || (array & 7) != 0) {
            return false;
        }
        int length = reader.s32(array + l.methodArrayLength);
        if (length <= 0 || length > MAX_METHODS) {
            return false;
        }
        for (int from = 0; from < length; from += METHODS_PER_READ) {
            int count = Math.min(METHODS_PER_READ, length - from);
            ByteBuffer block = reader.block(array + l.methodArrayData + 8L * from, 8 * count)
                    .order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < count; i++) {
                if (block.getLong(8 * i) == methodPtr) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a symbol is still referenced: a freed one has a count of 0 (when the JVM describes the count). */
    private boolean referenced(long symbol) throws MemoryReadException {
        if (layout.symbolRefcount < 0) {
            return true;
        }
        return (reader.s32(symbol + layout.symbolRefcount) & 0xffff) != 0;
    }

    private String symbol(long symbol) throws MemoryReadException {
        if (symbol == 0 || (symbol & 7) != 0 || !referenced(symbol)) {
            throw new MemoryReadException(symbol);
        }
        int length = reader.u16(symbol + layout.symbolLength);
        if (length == 0 || length > MAX_NAME) {
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
