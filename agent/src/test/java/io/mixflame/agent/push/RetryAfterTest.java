package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
    private static final long MAX = 300_000;

    @Test
    void secondsAndDatesAreWaitsUpToTheBound() {
        long now = ZonedDateTime.parse("Wed, 21 Oct 2015 07:28:00 GMT", DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant().toEpochMilli();
        assertThat(RetryAfter.millis("120", now, MAX)).isEqualTo(120_000);
        assertThat(RetryAfter.millis(" 0 ", now, MAX)).isZero();
        assertThat(RetryAfter.millis("Wed, 21 Oct 2015 07:28:30 GMT", now, MAX)).isEqualTo(30_000);
        assertThat(RetryAfter.millis("Wed, 21 Oct 2015 07:27:00 GMT", now, MAX)).as("a date past").isZero();
        assertThat(RetryAfter.millis("86400", now, MAX)).isEqualTo(MAX);
        assertThat(RetryAfter.millis("99999999999999999999999", now, MAX)).isEqualTo(MAX);
    }

    @Test
    void noHeaderOrAnUnreadableOneLeavesTheBackoff() {
        assertThat(RetryAfter.millis(null, 0, MAX)).isEqualTo(-1);
        assertThat(RetryAfter.millis("", 0, MAX)).isEqualTo(-1);
        assertThat(RetryAfter.millis("soon", 0, MAX)).isEqualTo(-1);
        assertThat(RetryAfter.millis("-5", 0, MAX)).isEqualTo(-1);
    }
}
