package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.Profile;
import java.util.List;

/**
 * The tables pprof and OpenTelemetry's profiles both index into: strings, locations (one per distinct frame, in the
 * order samples first reach them) and functions (one per {@link ProfileFunction}, which the frames of one method at
 * different lines share). Entry 0 of each is the empty one ({@link IndexTable}), so a pprof id is its index.
 */
final class ProfileDictionary {
    private final IndexTable<String> strings = new IndexTable<>("");
    private final IndexTable<Frame> locations = new IndexTable<>(null);
    private final IndexTable<ProfileFunction> functions = new IndexTable<>(null);
    /** The profile whose frames {@link #locationOfFrame} holds the location indexes of, by frame id. */
    private Profile locationsProfile;
    private int[] locationOfFrame;

    /** The index of {@code s} in the string table. */
    int string(String s) {
        return strings.index(s);
    }

    /**
     * The index of the location of frame {@code frameId} of {@code profile}. Each frame of a profile is looked up in
     * the table once and its index kept by id: a frame is in many stacks, and frames' hashes are cheap but not well
     * spread (names of one class differ in a few characters). Index 0 is no location, so it marks an id not looked up.
     */
    int location(Profile profile, int frameId) {
        if (profile != locationsProfile) {
            locationsProfile = profile;
            locationOfFrame = new int[profile.frames().size()];
        }
        int index = locationOfFrame[frameId];
        if (index == 0) {
            index = locations.index(profile.frame(frameId));
            locationOfFrame[frameId] = index;
        }
        return index;
    }

    /** The index of the function {@code frame} is code of. */
    int function(Frame frame) {
        return functions.index(ProfileFunction.of(frame));
    }

    /** Every string, "" first; a view that follows the table. */
    List<String> strings() {
        return strings.entries();
    }

    /** The frames of the locations 1..n, in index order, as the table is now. */
    List<Frame> locationFrames() {
        return withoutEntryZero(locations);
    }

    /** The functions 1..n, in index order, as the table is now. */
    List<ProfileFunction> functions() {
        return withoutEntryZero(functions);
    }

    private static <T> List<T> withoutEntryZero(IndexTable<T> table) {
        List<T> entries = table.entries();
        return List.copyOf(entries.subList(1, entries.size()));
    }
}
