package io.mixflame.image;

import io.mixflame.process.MemoryMapping;
import java.io.IOException;
import java.util.List;

/**
 * What every module map shares: the process as last read, one immutable {@link ModuleSnapshot} replaced whole (so a
 * walker never sees half an update), a generation that changes with the set of modules, and reads of the process
 * again at most once per {@value #REFRESH_NANOS} ns however often an address is unknown (walks through garbage ask
 * at every step). Each read that finds the mappings as they were doubles that interval, up to
 * {@value #MAX_REFRESH_NANOS} ns; one that finds them changed sets it back: a process in its steady state maps
 * nothing new, and rereading its few hundred mappings twenty times a second for addresses that stay unmapped was
 * most of what the walker allocated. A system's map says how it reads the process and how it answers what the
 * snapshot does not know.
 */
public abstract class SnapshotModuleMap implements ModuleMap {
    private static final long REFRESH_NANOS = 50_000_000L;
    private static final long MAX_REFRESH_NANOS = 400_000_000L;

    private final String jvmLibraryName;
    private volatile ModuleSnapshot snapshot = ModuleSnapshot.EMPTY;
    private volatile int generation;
    private long lastRefresh = System.nanoTime() - 2 * REFRESH_NANOS;
    private long refreshNanos = REFRESH_NANOS;
    private final RecentlyUnmappedStacks unmapped = new RecentlyUnmappedStacks();
    private final ToldStacks toldStacks = new ToldStacks();
    private volatile boolean keepUnmappedStacks;

    /** @param jvmLibraryName the file name of the JVM's library on this system */
    protected SnapshotModuleMap(String jvmLibraryName) {
        this.jvmLibraryName = jvmLibraryName;
    }

    /** The process as last read. */
    protected final ModuleSnapshot snapshot() {
        return snapshot;
    }

    /** Replaces the snapshot with one just read; the generation changes when the modules did. */
    protected final synchronized void install(ModuleSnapshot next) {
        lastRefresh = System.nanoTime();
        if (keepUnmappedStacks) {
            unmapped.compare(snapshot.mappings(), next.mappings(), lastRefresh);
        }
        refreshNanos = sameMappings(next.mappings(), snapshot.mappings())
                ? Math.min(MAX_REFRESH_NANOS, refreshNanos * 2) : REFRESH_NANOS;
        boolean modulesChanged = !next.modules().equals(snapshot.modules());
        snapshot = next;
        if (modulesChanged) {
            generation++;
            modulesChanged();
        }
    }

    /** The interval {@link #refreshIfStale} waits now, in ns. */
    final synchronized long refreshNanos() {
        return refreshNanos;
    }

    /** Whether two readings map the same ranges the same way (paths left out: the same file keeps its inode). */
    private static boolean sameMappings(List<MemoryMapping> a, List<MemoryMapping> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            MemoryMapping x = a.get(i);
            MemoryMapping y = b.get(i);
            if (x.start() != y.start() || x.end() != y.end() || x.executable() != y.executable()
                    || x.readable() != y.readable() || x.writable() != y.writable() || x.inode() != y.inode()
                    || x.fileOffset() != y.fileOffset()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether stacks found unmapped are kept for {@link #recentlyUnmappedStack}: for an engine whose samples are
     * walked seconds after they were taken (the perf engine's). Off by default.
     */
    public final void keepUnmappedStacks(boolean keep) {
        keepUnmappedStacks = keep;
    }

    /**
     * The read-write anonymous mapping holding {@code sp} that a read of the process found gone within the last
     * {@value RecentlyUnmappedStacks#KEEP_NANOS} ns, or null: the stack of a thread that has ended since its sample
     * was taken, for a walk that comes seconds later.
     */
    protected final MemoryMapping recentlyUnmappedStack(long sp) {
        return unmapped.containing(sp, System.nanoTime());
    }

    @Override
    public final void toldStack(long low, long high) {
        toldStacks.told(low, high);
    }

    /** The stack a thread told as it started holding {@code sp} ({@link #toldStack}), or null. */
    protected final MemoryMapping toldStackContaining(long sp) {
        return toldStacks.containing(sp);
    }

    /** Told after the modules changed: what was learnt about addresses outside them may be stale. */
    protected void modulesChanged() {
    }

    /**
     * Reads the process again unless it was read within the refresh interval, which grows while the mappings stay
     * as they were; a failed read is not retried sooner. For an address in no mapping at all: walks through garbage
     * land there at every step.
     */
    protected final void refreshIfStale() {
        refreshAfter(false);
    }

    /**
     * Reads the process again unless it was read within the shortest interval: for an address inside memory that is
     * reserved but not yet usable, which a JIT commits as its code cache grows — code to be walked through now, not
     * after the interval has grown.
     */
    protected final void refreshSoon() {
        refreshAfter(true);
    }

    private synchronized void refreshAfter(boolean soon) {
        if (System.nanoTime() - lastRefresh < (soon ? REFRESH_NANOS : refreshNanos)) {
            return;
        }
        try {
            refresh();
        } catch (IOException e) {
            // The process ended or cannot be read: lookups answer from what was read before.
            lastRefresh = System.nanoTime();
        }
    }

    @Override
    public final int generation() {
        return generation;
    }

    @Override
    public final List<MemoryMapping> mappings() {
        return snapshot.mappings();
    }

    @Override
    public final List<LoadedModule> modules() {
        return snapshot.modules();
    }

    @Override
    public final LoadedModule jvmLibrary() {
        if (snapshot.modules().isEmpty()) {
            refreshIfStale();
        }
        return snapshot.moduleNamed(jvmLibraryName);
    }
}
