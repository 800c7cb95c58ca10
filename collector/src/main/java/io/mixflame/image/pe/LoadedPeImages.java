package io.mixflame.image.pe;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The PE images loaded in one process, found by any address inside them (binary search over their bases). */
public final class LoadedPeImages {
    private final LoadedPeImage[] byBase;

    /**
     * @param images the images, in any order
     * @throws IllegalArgumentException if two of them overlap (a torn module list)
     */
    public LoadedPeImages(List<LoadedPeImage> images) {
        byBase = images.toArray(new LoadedPeImage[0]);
        Arrays.sort(byBase, Comparator.comparing(LoadedPeImage::base, Long::compareUnsigned));
        for (int i = 1; i < byBase.length; i++) {
            LoadedPeImage previous = byBase[i - 1];
            if (previous.contains(byBase[i].base())) {
                throw new IllegalArgumentException(previous.name() + " and " + byBase[i].name() + " overlap");
            }
        }
    }

    /** The image holding an address, if any. */
    public Optional<LoadedPeImage> at(long address) {
        int low = 0;
        int high = byBase.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            LoadedPeImage image = byBase[mid];
            if (Long.compareUnsigned(address, image.base()) < 0) {
                high = mid - 1;
            } else if (image.contains(address)) {
                return Optional.of(image);
            } else {
                low = mid + 1;
            }
        }
        return Optional.empty();
    }

    /** The images, lowest base first. */
    public List<LoadedPeImage> all() {
        return List.of(byBase);
    }
}
