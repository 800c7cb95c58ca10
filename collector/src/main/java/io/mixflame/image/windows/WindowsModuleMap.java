package io.mixflame.image.windows;

import com.sun.jna.Memory;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.image.SnapshotModuleMap;
import io.mixflame.process.MemoryMapping;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.windows.Kernel32Calls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The module map of a Windows process: its modules from a Toolhelp module snapshot (each image whole, from its base
 * for {@code SizeOfImage} bytes, its RVAs biased by the base, read from its file or, where the file is not what was
 * loaded, from the process: {@link PeImageLocator}), and other memory — JIT code, thread stacks — from
 * {@code VirtualQueryEx}, asked once per region and remembered until the modules change. The snapshot is taken again,
 * at the shared refresh rate, when an address falls outside every known region.
 */
public final class WindowsModuleMap extends SnapshotModuleMap {
    /** The file name of HotSpot's library on Windows. */
    public static final String JVM_LIBRARY = "jvm.dll";
    /** MODULEENTRY32W on x64. */
    private static final int MODULE_ENTRY_SIZE = 1080;
    private static final int MOD_BASE_ADDR = 24;
    private static final int MOD_BASE_SIZE = 32;
    private static final int EXE_PATH = 560;
    private static final int MAX_PATH = 260;
    /** MEMORY_BASIC_INFORMATION on x64. */
    private static final int MBI_SIZE = 48;
    private static final int MEM_COMMIT = 0x1000;
    /** MEMORY_BASIC_INFORMATION.Type of a mapped executable image: a DLL or EXE. */
    private static final int MEM_IMAGE = 0x1000000;
    /** The pseudo-name of a region that holds (part of) an image, as Linux's maps name {@code [vdso]}. */
    static final String IMAGE_REGION = "[image]";
    private static final int EXECUTE_ANY = 0x10 | 0x20 | 0x40 | 0x80;
    /** PAGE_READWRITE, PAGE_WRITECOPY, PAGE_EXECUTE_READWRITE, PAGE_EXECUTE_WRITECOPY. */
    private static final int WRITABLE_ANY = 0x04 | 0x08 | 0x40 | 0x80;
    private static final int NO_ACCESS = 0x01;
    private static final int GUARD = 0x100;
    private static final int MAX_REGIONS = 4096;

    private final int pid;
    private final long process;
    private final PeImageLocator images;
    private final ProcessMemory imageMemory;
    private final Memory info = new Memory(MBI_SIZE);
    /** The path of the first module Toolhelp lists, which is the process's executable; null before the first read. */
    private volatile String executablePath;
    /** Regions asked of VirtualQueryEx, in address order; replaced whole. */
    private volatile ModuleSnapshot regions = ModuleSnapshot.EMPTY;

    /**
     * @param pid         the process
     * @param process     a handle to it with {@code PROCESS_QUERY_INFORMATION | PROCESS_VM_READ}
     * @param imageMemory a reader of its memory for this map alone, for images read as loaded; closed with the map
     * @param cache       where parsed images are shared
     */
    public WindowsModuleMap(long pid, long process, ProcessMemory imageMemory, ModuleCache cache) {
        super(JVM_LIBRARY);
        this.pid = (int) pid;
        this.process = process;
        this.imageMemory = imageMemory;
        this.images = new PeImageLocator(pid, imageMemory, cache, new DbgHelpSymbols());
    }

    @Override
    public synchronized void refresh() throws IOException {
        long snap = Kernel32Calls.CreateToolhelp32Snapshot(Kernel32Calls.TH32CS_SNAPMODULE, pid);
        if (snap == Kernel32Calls.INVALID_HANDLE_VALUE || snap == 0) {
            throw new IOException("the modules of process " + pid + " cannot be listed");
        }
        List<MemoryMapping> maps = new ArrayList<>();
        List<LoadedModule> list = new ArrayList<>();
        try (Memory entry = new Memory(MODULE_ENTRY_SIZE)) {
            entry.clear();
            entry.setInt(0, MODULE_ENTRY_SIZE);
            boolean more = Kernel32Calls.Module32FirstW(snap, entry);
            if (more) {
                executablePath = wideString(entry, EXE_PATH, MAX_PATH);
            }
            while (more) {
                long base = entry.getLong(MOD_BASE_ADDR);
                long size = entry.getInt(MOD_BASE_SIZE) & 0xffffffffL;
                String path = wideString(entry, EXE_PATH, MAX_PATH);
                var image = images.imageOf(path, base, size);
                maps.add(new MemoryMapping(base, base + size, true, false, true, 0, 0, path));
                list.add(new LoadedModule(image, base, base + size, image.loadBias(base, 0)));
                entry.setInt(0, MODULE_ENTRY_SIZE);
                more = Kernel32Calls.Module32NextW(snap, entry);
            }
        } finally {
            Kernel32Calls.CloseHandle(snap);
        }
        maps.sort(Comparator.comparingLong(MemoryMapping::start));
        list.sort(Comparator.comparingLong(LoadedModule::start));
        install(new ModuleSnapshot(maps, list));
    }

    /** The module Toolhelp lists first: the process's executable. */
    @Override
    public LoadedModule mainExecutable() {
        if (executablePath == null) {
            refreshIfStale();
        }
        String path = executablePath;
        return path == null ? null : snapshot().moduleAtPath(path);
    }

    @Override
    protected void modulesChanged() {
        regions = ModuleSnapshot.EMPTY;
    }

    private static String wideString(Memory m, int offset, int maxChars) {
        char[] chars = new char[maxChars];
        int n = 0;
        while (n < maxChars) {
            char c = m.getChar(offset + 2L * n);
            if (c == 0) {
                break;
            }
            chars[n++] = c;
        }
        return new String(chars, 0, n);
    }

    @Override
    public LoadedModule moduleAt(long address) {
        LoadedModule hit = snapshot().moduleAt(address);
        if (hit != null) {
            return hit;
        }
        MemoryMapping r = region(address);
        if (r != null && !r.path().equals(IMAGE_REGION)) {
            // JIT code, a stack, a heap: memory no module will ever cover.
            return null;
        }
        // An image no snapshot has listed is a DLL loaded since (JNA's, the application's JNI libraries).
        refreshIfStale();
        return snapshot().moduleAt(address);
    }

    @Override
    public boolean isExecutable(long address) {
        if (snapshot().moduleAt(address) != null) {
            return true;
        }
        MemoryMapping r = region(address);
        return r != null && r.executable();
    }

    @Override
    public MemoryMapping stackRegionContaining(long sp) {
        MemoryMapping r = region(sp);
        return r != null && r.readable() && r.writable() ? r : null;
    }

    /** The committed region holding an address, from what was asked before or asked now; null when none. */
    private MemoryMapping region(long address) {
        MemoryMapping known = regions.mappingAt(address);
        if (known != null) {
            return known;
        }
        MemoryMapping asked = query(address);
        if (asked != null) {
            remember(asked);
        }
        return asked;
    }

    private synchronized MemoryMapping query(long address) {
        if (Kernel32Calls.VirtualQueryEx(process, address, info, MBI_SIZE) != MBI_SIZE) {
            return null;
        }
        long base = info.getLong(0);
        long size = info.getLong(24);
        int state = info.getInt(32);
        int protect = info.getInt(36);
        int type = info.getInt(40);
        if (state != MEM_COMMIT) {
            return null;
        }
        boolean readable = (protect & 0xff) != NO_ACCESS && (protect & GUARD) == 0;
        boolean executable = (protect & EXECUTE_ANY) != 0;
        boolean writable = (protect & WRITABLE_ANY) != 0;
        return new MemoryMapping(base, base + size, readable, writable, executable, 0, 0,
                type == MEM_IMAGE ? IMAGE_REGION : "");
    }

    private synchronized void remember(MemoryMapping m) {
        List<MemoryMapping> list = new ArrayList<>(regions.mappings());
        if (list.size() >= MAX_REGIONS) {
            list.clear();
        }
        list.removeIf(r -> Long.compareUnsigned(r.start(), m.end()) < 0 && Long.compareUnsigned(m.start(), r.end()) < 0);
        list.add(m);
        list.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        regions = new ModuleSnapshot(list, List.of());
    }

    /** Frees the query buffer and the image reader. */
    public void close() {
        info.close();
        imageMemory.close();
    }
}
