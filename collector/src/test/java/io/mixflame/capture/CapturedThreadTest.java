package io.mixflame.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CapturedThreadTest {
    @Test
    void anOffHeapCaptureKeepsItsCopyOutsideTheHeapAsItGrows() {
        CapturedThread t = CapturedThread.offHeap(16);
        assertThat(t.stackView().isDirect()).isTrue();
        t.stackView().putLong(8, 0x1122334455667788L);
        t.setStackLength(64);
        assertThat(t.stackLength()).as("clamped to the buffer").isEqualTo(16);
        t.reserveStack(64);
        assertThat(t.stackView().isDirect()).isTrue();
        assertThat(t.stackView().capacity()).isEqualTo(64);
        assertThatThrownBy(t::stackBuffer).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aHeapCaptureSharesItsArrayWithItsView() {
        CapturedThread t = new CapturedThread(16);
        t.stackBuffer()[0] = 0x42;
        assertThat(t.stackView().get(0)).isEqualTo((byte) 0x42);
        t.reserveStack(32);
        t.stackBuffer()[31] = 7;
        assertThat(t.stackView().get(31)).isEqualTo((byte) 7);
    }
}
