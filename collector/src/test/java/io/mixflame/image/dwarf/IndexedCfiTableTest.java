package io.mixflame.image.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.testsupport.CfiInstructions;
import io.mixflame.testsupport.EhFrameBuilder;
import io.mixflame.testsupport.LittleEndianWriter;
import io.mixflame.testsupport.UnwindInfoImage;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code .eh_frame_hdr} index: which FDE covers an address, and its rows interpreted on demand. */
class IndexedCfiTableTest {
    private static final long A = 0x1000;
    private static final long B = 0x1100;
    private static final long C = 0x1200;

    /** Three functions with a gap after each, written out of address order (the index sorts them). */
    private static EhFrameBuilder threeFunctions(CfiInstructions programOfB) {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int cie = eh.standardCie();
        eh.fde(cie, C, 0x40, new CfiInstructions().advanceLoc(1).defCfaOffset(16).advanceLoc(1).defCfaOffset(24));
        eh.fde(cie, A, 0x20, new CfiInstructions().advanceLoc(4).defCfaOffset(16));
        eh.fde(cie, B, 0x30, programOfB);
        return eh;
    }

    private static EhFrameBuilder threeFunctions() {
        return threeFunctions(new CfiInstructions().advanceLoc(8).defCfaOffset(48));
    }

    @Test
    void aModuleWithAnIndexIsReadThroughIt() {
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.indexed(threeFunctions()), Optional.empty());

        assertThat(cfi).isInstanceOf(IndexedCfiTable.class);
        assertThat(cfi.ranges()).isEqualTo(3);
        assertThat(cfi.distinctRules()).isZero();
    }

    @Test
    void findsTheRowOfTheFdeCoveringAnAddress() {
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.indexed(threeFunctions()), Optional.empty());

        assertThat(cfi.find(A).cfaOffset()).isEqualTo(8);
        assertThat(cfi.find(A + 4).cfaOffset()).isEqualTo(16);
        assertThat(cfi.find(B + 7).cfaOffset()).isEqualTo(8);
        assertThat(cfi.find(B + 8).cfaOffset()).isEqualTo(48);
        assertThat(cfi.find(C + 2).cfaOffset()).isEqualTo(24);
        assertThat(cfi.functionStart(B + 0x2f)).isEqualTo(B);
    }

    @Test
    void addressesBeforeAfterAndBetweenFdesHaveNoRule() {
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.indexed(threeFunctions()), Optional.empty());

        assertThat(cfi.find(0)).isNull();
        assertThat(cfi.find(A - 1)).isNull();
        assertThat(cfi.functionStart(A - 1)).isEqualTo(-1);
        assertThat(cfi.find(A + 0x20)).isNull();
        assertThat(cfi.functionStart(A + 0x20)).as("past A's range, before B: padding, no function").isEqualTo(-1);
        assertThat(cfi.find(B - 1)).isNull();
        assertThat(cfi.find(B + 0x30)).isNull();
        assertThat(cfi.find(C + 0x40)).isNull();
        assertThat(cfi.find(Long.MAX_VALUE)).isNull();
    }

    @Test
    void answersAsInterpretingEverythingAtOnceDoes() {
        EhFrameBuilder eh = threeFunctions();
        CallFrameInfo indexed = CfiParser.parse(UnwindInfoImage.indexed(eh), Optional.empty());
        CfiTable whole = CfiParser.parseAll(UnwindInfoImage.unindexed(eh), Optional.empty());

        for (long address = A - 0x10; address < C + 0x50; address++) {
            assertThat(indexed.find(address)).as("rule at 0x%x", address).isEqualTo(whole.find(address));
        }
    }

    @Test
    void equalRulesOfDifferentFdesAreOneObject() {
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.indexed(threeFunctions()), Optional.empty());

        assertThat(cfi.find(A)).isSameAs(cfi.find(B)).isSameAs(cfi.find(C));
        assertThat(cfi.find(A + 4)).isSameAs(cfi.find(C + 1));
        assertThat(cfi.distinctRules()).isEqualTo(4);
    }

    @Test
    void aDamagedFdeCostsOnlyItsFunction() {
        EhFrameBuilder eh = threeFunctions(new CfiInstructions().advanceLoc(1).raw(0x3e));
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.indexed(eh), Optional.empty());

        assertThat(cfi.find(B)).isNull();
        assertThat(cfi.find(B + 4)).isNull();
        assertThat(cfi.find(A + 4).cfaOffset()).isEqualTo(16);
        assertThat(cfi.find(C + 2).cfaOffset()).isEqualTo(24);
        // Without the index the same damage costs the whole module.
        assertThatThrownBy(() -> CfiParser.parseAll(UnwindInfoImage.unindexed(eh), Optional.empty()))
                .isInstanceOf(ElfFormatException.class);
    }

    @Test
    void anIndexEntryPointingAtACieCostsOnlyItsFunction() {
        EhFrameBuilder eh = threeFunctions();
        byte[] index = eh.index(UnwindInfoImage.EH_FRAME_HDR_ADDRESS);
        // The second entry (B) now points at offset 0 of .eh_frame, the CIE.
        patchS32(index, 12 + 8 + 4, UnwindInfoImage.EH_FRAME_ADDRESS - UnwindInfoImage.EH_FRAME_HDR_ADDRESS);
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.withIndex(eh, index), Optional.empty());

        assertThat(cfi.find(B + 8)).isNull();
        assertThat(cfi.find(A + 4).cfaOffset()).isEqualTo(16);
        assertThat(cfi.find(C + 2).cfaOffset()).isEqualTo(24);
    }

    @Test
    void anUnsortedIndexIsRefused() {
        assertRefusedWhenPatched(12, C - UnwindInfoImage.EH_FRAME_HDR_ADDRESS, "not sorted");
    }

    @Test
    void anIndexPointingOutsideEhFrameIsRefused() {
        assertRefusedWhenPatched(12 + 4, -0x100, "outside .eh_frame");
    }

    @Test
    void anIndexLongerThanItsSectionIsRefused() {
        assertRefusedWhenPatched(8, 1000, "runs past");
    }

    /** The index of {@link #threeFunctions()} with 4 bytes at {@code at} replaced is refused with {@code message}. */
    private static void assertRefusedWhenPatched(int at, long value, String message) {
        EhFrameBuilder eh = threeFunctions();
        byte[] index = eh.index(UnwindInfoImage.EH_FRAME_HDR_ADDRESS);
        patchS32(index, at, value);

        assertThatThrownBy(() -> IndexedCfiTable.open(UnwindInfoImage.withIndex(eh, index)))
                .isInstanceOf(ElfFormatException.class).hasMessageContaining(message);
    }

    @Test
    void anIndexOfAnotherEncodingFallsBackToInterpretingEverything() {
        EhFrameBuilder eh = threeFunctions();
        byte[] index = eh.index(UnwindInfoImage.EH_FRAME_HDR_ADDRESS);
        index[3] = 0x03; // table of udata4 instead of datarel sdata4

        assertThat(IndexedCfiTable.open(UnwindInfoImage.withIndex(eh, index))).isEmpty();
        CallFrameInfo cfi = CfiParser.parse(UnwindInfoImage.withIndex(eh, index), Optional.empty());
        assertThat(cfi).isInstanceOf(CfiTable.class);
        assertThat(cfi.find(B + 8).cfaOffset()).isEqualTo(48);
    }

    private static void patchS32(byte[] bytes, int at, long value) {
        System.arraycopy(new LittleEndianWriter().u32(value).toByteArray(), 0, bytes, at, 4);
    }
}
