package io.mixflame.image.pe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.PeImageBuilder.Function;
import io.mixflame.testsupport.UnwindInfoBytes;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeUnwindTableTest {
    private static final byte[] SIMPLE = new UnwindInfoBytes().prolog(5).push(1, 5).allocSmall(5, 32).toByteArray();

    private static PeUnwindTable table(List<Function> functions) {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x400]);
        b.unwindTables(functions);
        return PeUnwindTable.read(PeFile.parse(b.buildBuffer()));
    }

    @Test
    void findsTheEntryHoldingAnRva() {
        // Listed out of order on purpose: the table sorts.
        PeUnwindTable t = table(List.of(new Function(0x1100, 0x1180, SIMPLE), new Function(0x1000, 0x1040, SIMPLE)));

        assertThat(t.size()).isEqualTo(2);
        assertThat(t.find(0x0fff)).isEmpty(); // before
        assertThat(t.find(0x1000)).map(RuntimeFunction::begin).contains(0x1000L);
        assertThat(t.find(0x103f)).map(RuntimeFunction::begin).contains(0x1000L);
        assertThat(t.find(0x1040)).isEmpty(); // between: end is exclusive
        assertThat(t.find(0x1100)).map(RuntimeFunction::end).contains(0x1180L);
        assertThat(t.find(0x1180)).isEmpty(); // after
        // The start of the function holding an RVA, by which code without a symbol is named once per function.
        assertThat(t.functionStart(0x103f)).isEqualTo(0x1000);
        assertThat(t.functionStart(0x1100)).isEqualTo(0x1100);
        assertThat(t.functionStart(0x1040)).isEqualTo(-1);
        assertThat(t.functionStart(0x0fff)).isEqualTo(-1);
    }

    @Test
    void decodesEveryUnwindCode() {
        byte[] info = new UnwindInfoBytes().version(2).flags(UnwindInfo.FLAG_EHANDLER).prolog(0x30).frame(5, 2)
                .code(0x04, UnwindCode.EPILOG, 1).slot(0)
                .machFrame(0x30, true)
                .saveXmm128Far(0x2c, 15, 0x12340)
                .saveXmm128(0x28, 6, 0x40)
                .saveNonvolFar(0x24, 12, 0x10008)
                .saveNonvol(0x20, 7, 0x18)
                .setFpreg(0x1c)
                .allocLarge32(0x18, 0x2_0000)
                .allocLarge16(0x10, 0x1000)
                .allocSmall(0x08, 0x78)
                .push(0x02, 13)
                .toByteArray();
        PeUnwindTable t = table(List.of(new Function(0x1000, 0x1100, info)));

        UnwindInfo decoded = t.unwindInfo(t.find(0x1000).orElseThrow());

        assertThat(decoded.version()).isEqualTo(2);
        assertThat(decoded.hasHandler()).isTrue();
        assertThat(decoded.isChained()).isFalse();
        assertThat(decoded.prologSize()).isEqualTo(0x30);
        assertThat(decoded.frameRegister()).isEqualTo(5);
        assertThat(decoded.frameOffset()).isEqualTo(2);
        assertThat(decoded.codes()).containsExactly(
                new UnwindCode(0x04, UnwindCode.EPILOG, 1, 0),
                new UnwindCode(0x30, UnwindCode.PUSH_MACHFRAME, 1, 0),
                new UnwindCode(0x2c, UnwindCode.SAVE_XMM128_FAR, 15, 0x12340),
                new UnwindCode(0x28, UnwindCode.SAVE_XMM128, 6, 0x40),
                new UnwindCode(0x24, UnwindCode.SAVE_NONVOL_FAR, 12, 0x10008),
                new UnwindCode(0x20, UnwindCode.SAVE_NONVOL, 7, 0x18),
                new UnwindCode(0x1c, UnwindCode.SET_FPREG, 0, 0),
                new UnwindCode(0x18, UnwindCode.ALLOC_LARGE, 1, 0x2_0000),
                new UnwindCode(0x10, UnwindCode.ALLOC_LARGE, 0, 0x1000),
                new UnwindCode(0x08, UnwindCode.ALLOC_SMALL, 14, 0x78),
                new UnwindCode(0x02, UnwindCode.PUSH_NONVOL, 13, 0));
    }

    @Test
    void followsChainedInfo() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x400]);
        long parentInfo = b.xdataRva(0);
        byte[] child = new UnwindInfoBytes().push(0, 3).chainTo(0x1000, 0x1040, parentInfo).toByteArray();
        b.unwindTables(List.of(new Function(0x1000, 0x1040, SIMPLE), new Function(0x1200, 0x1280, child)));
        PeUnwindTable t = PeUnwindTable.read(PeFile.parse(b.buildBuffer()));

        UnwindInfo info = t.unwindInfo(t.find(0x1210).orElseThrow());

        assertThat(info.isChained()).isTrue();
        assertThat(info.codes()).hasSize(1);
        assertThat(info.chainedEntry()).isEqualTo(new RuntimeFunction(0x1000, 0x1040, parentInfo));
        assertThat(info.chained().codes()).extracting(UnwindCode::op)
                .containsExactly(UnwindCode.PUSH_NONVOL, UnwindCode.ALLOC_SMALL);
        assertThat(info.chained().chained()).isNull();
    }

    @Test
    void aChainThatLoopsIsCutAtTheDepthBound() {
        long self = 0x2000; // the first info of table(): .xdata follows the one-page .text
        assertMalformed(new UnwindInfoBytes().push(0, 3).chainTo(0x1000, 0x1040, self).toByteArray(), "deeper");
    }

    @Test
    void malformedUnwindInfoIsRejected() {
        assertMalformed(new UnwindInfoBytes().version(3).toByteArray(), "version");
        assertMalformed(new UnwindInfoBytes().code(0, 11, 0).toByteArray(), "unknown");
        assertMalformed(new UnwindInfoBytes().code(0, UnwindCode.ALLOC_LARGE, 2).slot(1).slot(0).toByteArray(),
                "ALLOC_LARGE");
        // A save claims two slots but the count says one.
        assertMalformed(new UnwindInfoBytes().saveNonvol(0, 3, 8).slotCount(1).toByteArray(), "slots");
    }

    @Test
    void unwindInfoOutsideTheImageIsRejected() {
        assertMalformed(new UnwindInfoBytes().chainTo(0x1000, 0x1040, 0x9_0000).toByteArray(), "no section");
    }

    @Test
    void anEntryEndingBeforeItBeginsIsRejected() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x400]);
        b.unwindTables(List.of(new Function(0x1040, 0x1000, SIMPLE)));

        assertThatThrownBy(() -> PeUnwindTable.read(PeFile.parse(b.buildBuffer())))
                .isInstanceOf(PeFormatException.class).hasMessageContaining("ends before");
    }

    private static void assertMalformed(byte[] info, String message) {
        PeUnwindTable t = table(List.of(new Function(0x1000, 0x1040, info)));
        assertThatThrownBy(() -> t.unwindInfo(t.find(0x1000).orElseThrow()))
                .isInstanceOf(PeFormatException.class).hasMessageContaining(message);
    }
}
