package io.mixflame.hotspot;

import io.mixflame.cache.MonotonicClock;
import io.mixflame.hotspot.census.CodeCensusLog;
import io.mixflame.hotspot.census.CodeHeapCensus;
import io.mixflame.hotspot.census.GatheredCodeCensus;
import io.mixflame.hotspot.linux.NativeCodeCensus;
import io.mixflame.hotspot.linux.NativeCodeKeeper;
import io.mixflame.process.MemoryReadException;
import io.mixflame.process.OwnPid;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HotSpot JVM as the profiler sees it from outside: its code cache, its interpreter, its call stub, and the
 * names of its methods, all read from its memory through the layout its own tables describe. Not thread-safe:
 * give each walking thread its own.
 */
public final class HotSpotVm {
    private static final Logger LOG = LoggerFactory.getLogger(HotSpotVm.class);

    private final HotSpotLayout layout;
    private final VmReader reader;
    private final CodeCacheIndex codeCache;
    private final CodeCacheQueries codeQueries;
    private final JavaMethodReader methods;
    private final ScopeDecoder scopes;
    private final long interpreterStart;
    private final long interpreterEnd;
    private final long callStubReturn;
    private final JavaThreadList threads;
    private final LastJavaFrames lastJavaFrames;
    private final GeneratedStubs stubs;
    private final Map<Long, CachedScopes> scopeCache = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, CachedScopes> eldest) {
            return size() > 16_384;
        }
    };

    private HotSpotVm(VmStructs structs, HotSpotLayout layout, VmReader reader, LoadedModule libjvm)
            throws MemoryReadException, UnsupportedVmException {
        this.layout = layout;
        this.reader = reader;
        this.codeCache = new CodeCacheIndex(layout, reader, MonotonicClock.NANOS, () -> census(reader));
        this.methods = new JavaMethodReader(layout, reader);
        this.scopes = new ScopeDecoder(layout, reader);
        long queue = reader.readLong(layout.interpreterCodeVariable);
        this.interpreterStart = reader.readLong(queue + layout.stubQueueBuffer);
        this.interpreterEnd = interpreterStart + reader.s32(queue + layout.stubQueueLimit);
        this.callStubReturn = reader.readLong(layout.callStubReturnVariable);
        this.threads = new JavaThreadList(structs, layout, reader, new JavaHeapReader(structs, layout, reader));
        this.lastJavaFrames = new LastJavaFrames(layout, reader);
        this.codeQueries = new CodeCacheQueries(codeCache);
        this.stubs = new GeneratedStubs(reader, structs, new LibjvmSymbols(libjvm), codeQueries, codeQueries,
                MonotonicClock.NANOS);
    }

    /**
     * The JVM in a process, when libjvm is mapped there and describes itself; otherwise empty, after one log line
     * naming what was missing (the walk then shows native frames only).
     */
    public static Optional<HotSpotVm> attach(ModuleMap modules, VmReader reader) {
        LoadedModule libjvm = modules.jvmLibrary();
        if (libjvm == null) {
            return Optional.empty();
        }
        try {
            VmStructs structs = VmStructs.read(reader, libjvm);
            return Optional.of(new HotSpotVm(structs, new HotSpotLayout(structs, reader), reader, libjvm));
        } catch (UnsupportedVmException e) {
            LOG.warn("Java frames will not be named: {}", e.getMessage());
            return Optional.empty();
        } catch (MemoryReadException e) {
            LOG.warn("Java frames will not be named: the code cache cannot be read ({})", e.getMessage());
            return Optional.empty();
        }
    }

    /** The JVM's feature version (17, 25, ...). */
    public int majorVersion() {
        return layout.majorVersion;
    }

    /**
     * The census of the code heaps: for this JVM plain loads in mixflame's native library, else (another JVM, or no
     * native library) gathered reads of the JVM's memory.
     */
    private static CodeHeapCensus census(VmReader reader) {
        CodeHeapCensus own = reader.memory().pid() == OwnPid.get() ? NativeCodeCensus.inProcess() : null;
        return own != null ? own : new GatheredCodeCensus(reader.memory());
    }

    /**
     * Says when the sample about to be walked was taken, on the monotonic clock ({@code 0}: now): its pcs are then
     * looked up in the code cache as it was at that time, where the code cache's history is kept (this process's
     * own JVM): code the JIT freed or replaced since is still named as it was.
     */
    public void sampleTakenAt(long monotonicNanos) {
        codeCache.sampleTakenAt(monotonicNanos);
    }

    /**
     * Has the censuses of this process's own JVM's code heaps taken ahead of the walker, by a native thread that no
     * safepoint stops, while samples wait ({@code src/main/native/code_keeper.c}): in the rings whose metadata pages
     * are given (perf's layout), or at the walker ({@link #sampleTakenAt}, {@link #walkerWaiting}). Without it, the
     * walker takes the censuses itself when it runs late, and code the JIT freed while it stood still is never seen.
     *
     * @return null when they are, else why not in one line
     */
    public String keepHistoryAhead(long[] watchedRings) {
        if (reader.memory().pid() != OwnPid.get()) {
            return "the profiled JVM is another process";
        }
        String[] why = {"the code heaps cannot be walked on this JVM"};
        boolean started = codeCache.keepAhead((heaps, censusLayout, headerBytes) ->
                NativeCodeKeeper.start(heaps, censusLayout, headerBytes, watchedRings, why));
        return started ? null : why[0];
    }

    /** Tells the censuses' thread that the walker waits for samples ({@link #keepHistoryAhead}). */
    public void walkerWaiting() {
        codeCache.walkerWaiting();
    }

    /**
     * Stops the censuses taken ahead of the walker; with {@code free}, frees their log, which no walker may read after.
     * The rings watched must stay mapped until this returns.
     */
    public void stopHistoryAhead(boolean free) {
        CodeCensusLog log = codeCache.ahead();
        if (log != null) {
            log.stop(free);
        }
    }

    /**
     * What the code cache's history did, for the cost note: null where it is not kept, else e.g. "code cache history:
     * 120 censuses, 35 lookups answered by code freed or replaced since".
     */
    public String historyNote() {
        CodeCacheHistory h = codeCache.history();
        if (h == null) {
            return null;
        }
        StringBuilder b = new StringBuilder("code cache history: ");
        CodeCensusLog log = codeCache.ahead();
        if (log != null) {
            b.append(log.censuses()).append(" censuses by a native thread while walks were late, ")
                    .append(h.censuses()).append(" with changes");
            if (log.cutShort() > 0) {
                b.append(" (").append(log.cutShort()).append(" cut short)");
            }
            if (log.dropped() > 0) {
                b.append(", ").append(log.dropped()).append(" dropped: the walker too far behind to read them");
            }
            if (log.inconsistent() > 0) {
                b.append(", its log found inconsistent and left");
            }
        } else {
            b.append(h.censuses()).append(" censuses");
            if (h.cutShort() > 0) {
                b.append(" (").append(h.cutShort()).append(" cut short)");
            }
        }
        b.append(", ").append(h.namedLate()).append(" lookups answered by code freed or replaced since");
        if (h.ambiguous() > 0) {
            b.append(", ").append(h.ambiguous()).append(" unnamed: the code changed around the sample's time");
        }
        if (h.forgotten() > 0) {
            b.append(", ").append(h.forgotten()).append(" unnamed: the code was freed before the history kept");
        }
        if (h.unread() > 0) {
            b.append(", ").append(h.unread()).append(" unnamed: the freed code's header was overwritten first");
        }
        return b.toString();
    }

    /** Applies the censuses taken ahead that the walker has not, without a sample: for tests in this package. */
    void applyHistoryAhead() {
        codeCache.applyAhead();
    }

    /** The counts of the censuses taken ahead, for a test's message. */
    String aheadCounts() {
        CodeCensusLog log = codeCache.ahead();
        return log == null ? "none taken ahead" : log.censuses() + " censuses, " + log.cutShort() + " cut short, "
                + log.dropped() + " dropped, " + log.inconsistent() + " inconsistent";
    }

    /** The code cache's history, or null where it is not kept: for tests in this package. */
    CodeCacheHistory codeHistory() {
        return codeCache.history();
    }

    /** Whether a pc is in the code cache (cheap, no read). */
    public boolean inCodeCache(long pc) {
        return codeCache.inCodeCache(pc);
    }

    /** The code blob holding a pc, or null. */
    public CodeBlobInfo blobAt(long pc) {
        return codeCache.find(pc);
    }

    /** {@link #blobAt} and {@link #inCodeCache} as the function and predicate unwinders take. */
    public CodeCacheQueries codeQueries() {
        return codeQueries;
    }

    /**
     * The name of the generated stub at {@code pc} in {@code blob} (which is not Java code): its own name, such as
     * {@code jint_disjoint_arraycopy}, "vtable stub" or "itable stub"; the blob's name where the stub is not known.
     */
    public String stubName(CodeBlobInfo blob, long pc) {
        return stubs.name(blob, pc);
    }

    /**
     * The entry of the generated stub that holds {@code pc} in {@code blob}: its first instruction, which says
     * whether it builds a frame. The blob's first instruction for a blob of one stub; 0 when not known.
     */
    public long stubEntry(CodeBlobInfo blob, long pc) {
        return stubs.entry(blob, pc);
    }

    /** Whether a pc is in the template interpreter. */
    public boolean inInterpreter(long pc) {
        return pc >= interpreterStart && pc < interpreterEnd;
    }

    /** Whether a pc is the call stub's return address: the frame is an entry frame (C++ called Java). */
    public boolean isCallStubReturn(long pc) {
        return pc == callStubReturn;
    }

    /** The method at a Method*, or null when it does not look like one. */
    public JavaMethod method(long methodPtr) {
        return methods.read(methodPtr);
    }

    /**
     * Whether this JVM describes what tells a live method from one whose class was unloaded (symbol reference counts,
     * each class's method array); without it, names are only checked for being well-formed text.
     */
    public boolean checksMethodLiveness() {
        return layout.symbolRefcount >= 0 && layout.instanceKlassMethods >= 0;
    }

    /** The bytecode index an interpreter frame's bcp stands for, or -1 (native method, bad bcp). */
    public int bci(long methodPtr, long bcp) {
        return methods.bci(methodPtr, bcp);
    }

    /**
     * The Java methods running at pc in a compiled blob, innermost first (inlined ones before their caller). Cached
     * by pc and blob: decoding takes several reads of the JVM's memory, and the same return addresses recur.
     */
    public List<InlinedScope> scopes(CodeBlobInfo blob, long pc) {
        CachedScopes c = scopeCache.get(pc);
        if (c != null && c.blob().sameCode(blob)) {
            return c.scopes();
        }
        if (!debugInfoReadable(blob)) {
            // Code freed since the sample whose debug information may lie under other code or data now: its own
            // method, without what it had inlined, rather than names read from whatever is there.
            return blob.method() == 0 ? List.of() : List.of(new InlinedScope(blob.method(), -1));
        }
        List<InlinedScope> decoded = List.copyOf(scopes.scopes(blob, pc));
        scopeCache.put(pc, new CachedScopes(blob, decoded));
        return decoded;
    }

    /**
     * Whether a blob's debug information can be read now: it is in the code cache, or it was freed and nothing has
     * been put over its bytes since, and they hold that information (not so where it lives outside the code cache).
     */
    private boolean debugInfoReadable(CodeBlobInfo blob) {
        CodeCacheHistory h = codeCache.history();
        CodeCacheHistory.Entry gone = h == null ? null : h.retiredEntry(blob);
        return gone == null || !layout.immutableData && h.untouchedSince(gone);
    }

    private record CachedScopes(CodeBlobInfo blob, List<InlinedScope> scopes) {
    }

    /** The JVM's Java threads now; empty when the list could not be read consistently. */
    public List<JavaThreadInfo> javaThreads() {
        try {
            return threads.read();
        } catch (MemoryReadException e) {
            return List.of();
        }
    }

    /**
     * The JVM's thread list read through {@code own}, a reader of this JVM's memory that no other thread uses: for a
     * thread that records names while another walks stacks through this instance.
     */
    public JavaThreadNames threadNames(VmReader own) {
        return new JavaThreadNames(threads.withReader(own), layout);
    }

    /**
     * Where a thread last left Java code: {@code out} gets that frame's sp, fp and pc (0 when not recorded: the
     * word below sp is then the pc). For a thread back in Java since, the last anchor seen of it: check it against
     * the sample's stack before walking from it.
     *
     * @return false for a thread never seen outside Java code, or not a Java thread
     */
    public boolean lastJavaFrame(int tid, long[] out) {
        return lastJavaFrames.read(tid, out);
    }

    /** Reads a word of the JVM's memory. */
    public long readWord(long address) throws MemoryReadException {
        return reader.readLong(address);
    }
}
