package io.mixflame.image.pe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadedPeImagesTest {
    private static final PeUnwindTable NO_TABLE = null;

    private static LoadedPeImage image(String name, long base, long size) {
        return new LoadedPeImage(name, base, size, NO_TABLE);
    }

    @Test
    void findsTheImageHoldingAnAddressAndNoneBetweenImages() {
        LoadedPeImages images = new LoadedPeImages(List.of(image("b.dll", 0x7ff0_0000_0000L, 0x2000),
                image("a.exe", 0x1_4000_0000L, 0x1000)));

        assertThat(images.at(0x1_4000_0000L)).map(LoadedPeImage::name).contains("a.exe");
        assertThat(images.at(0x1_4000_0fffL)).map(LoadedPeImage::name).contains("a.exe");
        assertThat(images.at(0x1_4000_1000L)).isEmpty();
        assertThat(images.at(0x7ff0_0000_1fffL)).map(LoadedPeImage::name).contains("b.dll");
        assertThat(images.at(0x7ff0_0000_2000L)).isEmpty();
        assertThat(images.at(0x1000)).isEmpty();
        assertThat(images.at(-1L)).isEmpty();
        assertThat(images.all()).extracting(LoadedPeImage::name).containsExactly("a.exe", "b.dll");
    }

    @Test
    void overlappingImagesAreRefused() {
        assertThatThrownBy(() -> new LoadedPeImages(List.of(image("a", 0x10000, 0x2000), image("b", 0x11000, 0x1000))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
    }

    @Test
    void anEmptyOrWrappingRangeIsRefused() {
        assertThatThrownBy(() -> image("a", 0x10000, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> image("a", -0x1000L, 0x2000)).isInstanceOf(IllegalArgumentException.class);
        assertThat(image("top", -0x1000L, 0x1000).contains(-1L)).isTrue();
    }
}
