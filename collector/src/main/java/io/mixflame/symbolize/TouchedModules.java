package io.mixflame.symbolize;

import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleImage;
import io.mixflame.profile.NativeModule;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The modules whose code a frame namer has named frames in, for outputs that record the libraries a profile ran in
 * with their paths (pprof's mappings). Told once per distinct frame, not per sample; read by whichever thread writes
 * the profile.
 */
public final class TouchedModules {
    private final Set<ModuleImage> images = new LinkedHashSet<>();

    /** Notes that a frame was named in {@code module} (null: no module). */
    public synchronized void add(LoadedModule module) {
        if (module != null) {
            images.add(module.image());
        }
    }

    /**
     * The modules touched so far, each with its path and build id, {@code mainExecutable} first (touched or not;
     * null when it is not known).
     */
    public List<NativeModule> list(LoadedModule mainExecutable) {
        List<ModuleImage> touched;
        synchronized (this) {
            touched = new ArrayList<>(images);
        }
        List<NativeModule> out = new ArrayList<>(touched.size() + 1);
        if (mainExecutable != null) {
            out.add(of(mainExecutable.image()));
        }
        for (ModuleImage image : touched) {
            if (mainExecutable == null || image != mainExecutable.image()) {
                out.add(of(image));
            }
        }
        return out;
    }

    private static NativeModule of(ModuleImage image) {
        return new NativeModule(image.name(), image.path(), image.buildId());
    }
}
