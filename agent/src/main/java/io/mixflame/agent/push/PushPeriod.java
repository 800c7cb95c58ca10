package io.mixflame.agent.push;

import io.mixflame.profile.Profile;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.util.List;

/** One period's profiles, one per event, shaped by the options (filter, frame style) at their first push. */
final class PushPeriod {
    private final List<Profile> profiles;
    private List<Profile> shaped;

    PushPeriod(List<Profile> profiles) {
        this.profiles = List.copyOf(profiles);
    }

    /**
     * The profiles as {@code options} shape them, once for all targets; called on the push threads only, off the
     * application's and the timer's.
     */
    synchronized List<Profile> shaped(ReportOptions options) {
        if (shaped == null) {
            shaped = ProfileFiles.shaped(profiles, options);
        }
        return shaped;
    }
}
