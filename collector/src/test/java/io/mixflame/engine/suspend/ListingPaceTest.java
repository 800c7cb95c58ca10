package io.mixflame.engine.suspend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ListingPaceTest {
    private static final long MS = 1_000_000L;

    @Test
    void theFirstListingIsDueAtOnceAndACheapOneComesBackAfterTheShortestPeriod() {
        ListingPace pace = new ListingPace();
        assertThat(pace.due(5 * MS)).isTrue();
        pace.listed(5 * MS, 6 * MS);
        assertThat(pace.due(6 * MS + ListingPace.MIN_PERIOD_NANOS - 1)).isFalse();
        assertThat(pace.due(6 * MS + ListingPace.MIN_PERIOD_NANOS)).isTrue();
    }

    @Test
    void aSlowListingIsTakenAgainOnlyAfterAHundredTimesItsOwnLength() {
        ListingPace pace = new ListingPace();
        pace.listed(0, 15 * MS);
        assertThat(pace.periodNanos()).isEqualTo(1500 * MS);
        assertThat(pace.due(15 * MS + 1499 * MS)).isFalse();
        assertThat(pace.due(15 * MS + 1500 * MS)).isTrue();
        pace.listed(2000 * MS, 2002 * MS);
        assertThat(pace.periodNanos()).as("faster again").isEqualTo(ListingPace.MIN_PERIOD_NANOS);
    }

    @Test
    void newThreadsAreNeverLookedForLessThanEveryTwoSeconds() {
        ListingPace pace = new ListingPace();
        pace.listed(0, 100 * MS);
        assertThat(pace.periodNanos()).isEqualTo(ListingPace.MAX_PERIOD_NANOS);
    }
}
