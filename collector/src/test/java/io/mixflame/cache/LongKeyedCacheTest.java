package io.mixflame.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LongKeyedCacheTest {

    @Test
    void findsWhatWasPutAndNothingElse() {
        LongKeyedCache<String> cache = new LongKeyedCache<>(64);
        for (long k = 1; k <= 40; k++) {
            cache.put(k * 0x1000, "v" + k);
        }
        cache.put(0x1000, "again");
        for (long k = 2; k <= 40; k++) {
            assertThat(cache.get(k * 0x1000)).isEqualTo("v" + k);
        }
        assertThat(cache.get(0x1000)).isEqualTo("again");
        assertThat(cache.get(0x1001)).isNull();
        assertThat(cache.size()).isEqualTo(40);
    }

    @Test
    void zeroIsNeverAKey() {
        LongKeyedCache<String> cache = new LongKeyedCache<>(16);
        cache.put(0, "zero");
        assertThat(cache.get(0)).isNull();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aFullCacheStartsAgainRatherThanGrowing() {
        LongKeyedCache<Long> cache = new LongKeyedCache<>(16);
        for (long k = 1; k <= 1000; k++) {
            cache.put(k, k);
            assertThat(cache.get(k)).isEqualTo(k);
        }
        assertThat(cache.size()).isLessThanOrEqualTo(32);
        // Colliding keys (same low bits) are all found while they fit.
        cache.clear();
        for (long k = 1; k <= 16; k++) {
            cache.put(k << 40, k);
        }
        for (long k = 1; k <= 16; k++) {
            assertThat(cache.get(k << 40)).isEqualTo(k);
        }
    }

    @Test
    void theTableGrowsUpToTheCapacityKeepingEveryEntry() {
        LongKeyedCache<Long> cache = new LongKeyedCache<>(10_000);
        for (long k = 1; k <= 10_000; k++) {
            cache.put(k * 0x1000, k);
        }
        assertThat(cache.size()).as("nothing dropped while growing").isEqualTo(10_000);
        for (long k = 1; k <= 10_000; k++) {
            assertThat(cache.get(k * 0x1000)).isEqualTo(k);
        }
        cache.put(0x7fff_0000L, 0L);
        assertThat(cache.size()).as("within the capacity's table").isEqualTo(10_001);
    }
}
