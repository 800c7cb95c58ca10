package io.mixflame.image.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.testsupport.CfiInstructions;
import io.mixflame.testsupport.EhFrameBuilder;
import io.mixflame.testsupport.UnwindInfoImage;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Interpreting CIEs and FDEs into rows, on {@code .eh_frame} sections written by {@link EhFrameBuilder}. */
class CfiParserTest {
    private static final int RBP = 6;
    private static final int RSP = 7;
    private static final int RA = 16;
    private static final long F = 0x1000;
    private static final RegisterRule RA_AT_CFA_MINUS_8 = RegisterRule.savedAt(-8);

    private static CfiTable parse(EhFrameBuilder eh) {
        return CfiParser.parseAll(UnwindInfoImage.unindexed(eh), Optional.empty());
    }

    private static CfiRule rspBased(long offset, RegisterRule fp) {
        return new CfiRule(RSP, offset, null, fp, RA_AT_CFA_MINUS_8, false);
    }

    /** The FDE of one function under GCC's usual CIE. */
    private static CfiTable oneFunction(long length, CfiInstructions program) {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        eh.fde(eh.standardCie(), F, length, program);
        return parse(eh);
    }

    @Test
    void framePointerPrologueAndEpilogueGiveOneRowEach() {
        // push %rbp; mov %rsp,%rbp; ... ; pop %rbp; ret
        CfiTable t = oneFunction(0x20, new CfiInstructions()
                .advanceLoc(1).defCfaOffset(16).offset(RBP, 2)
                .advanceLoc(3).defCfaRegister(RBP)
                .advanceLoc(0x18).defCfa(RSP, 8));

        assertThat(t.find(F)).isEqualTo(rspBased(8, RegisterRule.SAME));
        assertThat(t.find(F + 1)).isEqualTo(rspBased(16, RegisterRule.savedAt(-16)));
        assertThat(t.find(F + 3)).isEqualTo(rspBased(16, RegisterRule.savedAt(-16)));
        assertThat(t.find(F + 4)).isEqualTo(new CfiRule(RBP, 16, null, RegisterRule.savedAt(-16), RA_AT_CFA_MINUS_8, false));
        assertThat(t.find(F + 0x1b).cfaRegister()).isEqualTo(RBP);
        assertThat(t.find(F + 0x1c)).isEqualTo(rspBased(8, RegisterRule.savedAt(-16)));
        assertThat(t.find(F + 0x1f)).isEqualTo(rspBased(8, RegisterRule.savedAt(-16)));
    }

    @Test
    void addressesOutsideEveryFdeHaveNoRule() {
        CfiTable t = oneFunction(0x20, new CfiInstructions());

        assertThat(t.find(F - 1)).isNull();
        assertThat(t.find(F + 0x20)).isNull();
        assertThat(t.find(Long.MAX_VALUE)).isNull();
        assertThat(t.functionStart(F + 0x10)).isEqualTo(F);
        assertThat(t.functionStart(F - 1)).isEqualTo(-1);
        assertThat(t.functionStart(F + 0x20)).as("past the FDE's range").isEqualTo(-1);
    }

    @Test
    void everyAdvanceFormMovesByItsDeltaTimesTheCodeAlignment() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int cie = eh.cie("zR", EhFrameBuilder.PCREL_SDATA4, 4, -8, RA, new CfiInstructions().defCfa(RSP, 8).offset(RA, 1));
        eh.fde(cie, F, 0x50000, new CfiInstructions()
                .advanceLoc(1).defCfaOffset(16)
                .advanceLoc1(2).defCfaOffset(24)
                .advanceLoc2(0x100).defCfaOffset(32)
                .advanceLoc4(0x10000).defCfaOffset(40));
        CfiTable t = parse(eh);

        assertThat(t.find(F + 3).cfaOffset()).isEqualTo(8);
        assertThat(t.find(F + 4).cfaOffset()).isEqualTo(16);
        assertThat(t.find(F + 4 + 7).cfaOffset()).isEqualTo(16);
        assertThat(t.find(F + 4 + 8).cfaOffset()).isEqualTo(24);
        assertThat(t.find(F + 12 + 0x400 - 1).cfaOffset()).isEqualTo(24);
        assertThat(t.find(F + 12 + 0x400).cfaOffset()).isEqualTo(32);
        assertThat(t.find(F + 12 + 0x400 + 0x40000 - 1).cfaOffset()).isEqualTo(32);
        assertThat(t.find(F + 12 + 0x400 + 0x40000).cfaOffset()).isEqualTo(40);
    }

    @Test
    void signedFormsOfTheCfaRuleAreFactoredByTheDataAlignment() {
        CfiTable t = oneFunction(0x10, new CfiInstructions()
                .advanceLoc(1).defCfaSf(RBP, -2)
                .advanceLoc(1).defCfaOffsetSf(-3));

        assertThat(t.find(F + 1).cfaRegister()).isEqualTo(RBP);
        assertThat(t.find(F + 1).cfaOffset()).isEqualTo(16);
        assertThat(t.find(F + 2).cfaRegister()).isEqualTo(RBP);
        assertThat(t.find(F + 2).cfaOffset()).isEqualTo(24);
    }

    @Test
    void offsetFormsSaveAndRestoreFormsReturnToTheCieRule() {
        CfiTable t = oneFunction(0x10, new CfiInstructions()
                .advanceLoc(1).offsetExtended(RBP, 2)
                .advanceLoc(1).restore(RBP)
                .advanceLoc(1).offsetExtendedSf(RBP, -3)
                .advanceLoc(1).restoreExtended(RBP)
                .advanceLoc(1).offset(RA, 2)
                .advanceLoc(1).restore(RA));

        assertThat(t.find(F + 1).fp()).isEqualTo(RegisterRule.savedAt(-16));
        assertThat(t.find(F + 2).fp()).isEqualTo(RegisterRule.SAME);
        assertThat(t.find(F + 3).fp()).isEqualTo(RegisterRule.savedAt(24));
        assertThat(t.find(F + 4).fp()).isEqualTo(RegisterRule.SAME);
        assertThat(t.find(F + 5).returnAddress()).isEqualTo(RegisterRule.savedAt(-16));
        assertThat(t.find(F + 6).returnAddress()).isEqualTo(RA_AT_CFA_MINUS_8);
    }

    @Test
    void undefinedSameValueAndRegisterRules() {
        CfiTable t = oneFunction(0x10, new CfiInstructions()
                .advanceLoc(1).register(RBP, 3)
                .advanceLoc(1).sameValue(RBP)
                .advanceLoc(1).undefined(RA));

        assertThat(t.find(F + 1).fp()).isEqualTo(new RegisterRule(RegisterRule.Kind.IN_REGISTER, 3, null));
        assertThat(t.find(F + 2).fp()).isEqualTo(RegisterRule.SAME);
        assertThat(t.find(F + 3).returnAddress()).isEqualTo(RegisterRule.UNDEFINED);
    }

    @Test
    void restoreStateBringsBackTheRulesRememberedBeforeAnEarlyReturn() {
        // GCC around an early "pop %rbp; ret" in the middle of a function: the code after it runs with the frame.
        CfiTable t = oneFunction(0x30, new CfiInstructions()
                .advanceLoc(1).defCfaOffset(16).offset(RBP, 2)
                .advanceLoc(3).defCfaRegister(RBP)
                .advanceLoc(8).rememberState().defCfa(RSP, 8).restore(RBP)
                .advanceLoc(1).restoreState());

        CfiRule inBody = new CfiRule(RBP, 16, null, RegisterRule.savedAt(-16), RA_AT_CFA_MINUS_8, false);
        assertThat(t.find(F + 0xb)).isEqualTo(inBody);
        assertThat(t.find(F + 0xc)).isEqualTo(rspBased(8, RegisterRule.SAME));
        assertThat(t.find(F + 0xd)).isEqualTo(inBody);
        assertThat(t.find(F + 0x2f)).isEqualTo(inBody);
    }

    @Test
    void nestedStatesArePoppedInReverseOrder() {
        CfiTable t = oneFunction(0x10, new CfiInstructions()
                .defCfaOffset(16).rememberState()
                .advanceLoc(1).defCfaOffset(24).rememberState()
                .advanceLoc(1).defCfaOffset(32)
                .advanceLoc(1).restoreState()
                .advanceLoc(1).restoreState());

        assertThat(t.find(F).cfaOffset()).isEqualTo(16);
        assertThat(t.find(F + 1).cfaOffset()).isEqualTo(24);
        assertThat(t.find(F + 2).cfaOffset()).isEqualTo(32);
        assertThat(t.find(F + 3).cfaOffset()).isEqualTo(24);
        assertThat(t.find(F + 4).cfaOffset()).isEqualTo(16);
    }

    @Test
    void restoreStateWithNothingRememberedIsMalformed() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        eh.fde(eh.standardCie(), F, 0x10, new CfiInstructions().advanceLoc(1).restoreState());

        assertThatThrownBy(() -> parse(eh)).isInstanceOf(ElfFormatException.class)
                .hasMessageContaining("restore_state without remember_state");
    }

    @Test
    void expressionRulesKeepTheirExpressions() {
        byte[] pltCfa = {0x77, 0x08, (byte) 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22};
        byte[] raSlot = {0x11, 0x10, 0x1c}; // DW_OP_consts 16; DW_OP_minus: CFA - 16
        byte[] fpValue = {0x76, 0x20}; // DW_OP_breg6 +32
        CfiTable t = oneFunction(0x10, new CfiInstructions()
                .defCfaExpression(pltCfa)
                .expression(RA, raSlot)
                .valExpression(RBP, fpValue)
                .advanceLoc(1).valOffset(RBP, 2));

        CfiRule r = t.find(F);
        assertThat(r.cfaExpression()).isEqualTo(new DwarfExpression(pltCfa));
        assertThat(r.returnAddress())
                .isEqualTo(new RegisterRule(RegisterRule.Kind.SAVED_AT_EXPRESSION, 0, new DwarfExpression(raSlot)));
        assertThat(r.fp())
                .isEqualTo(new RegisterRule(RegisterRule.Kind.VALUE_OF_EXPRESSION, 0, new DwarfExpression(fpValue)));
        assertThat(t.find(F + 1).fp()).isEqualTo(new RegisterRule(RegisterRule.Kind.VALUE_AT, -16, null));
        assertThat(t.find(F + 1).cfaExpression()).isEqualTo(new DwarfExpression(pltCfa));
    }

    @Test
    void aRegisterCfaRuleReplacesAnExpression() {
        CfiTable t = oneFunction(0x10, new CfiInstructions()
                .defCfaExpression(new byte[] {0x77, 0x08})
                .advanceLoc(1).defCfa(RSP, 16)
                .advanceLoc(1).defCfaExpression(new byte[] {0x77, 0x08})
                .advanceLoc(1).defCfaRegister(RBP));

        assertThat(t.find(F + 1).cfaExpression()).isNull();
        assertThat(t.find(F + 2).cfaExpression()).isNotNull();
        assertThat(t.find(F + 3).cfaExpression()).isNull();
        assertThat(t.find(F + 3).cfaRegister()).isEqualTo(RBP);
    }

    @Test
    void nopAndArgsSizeChangeNothing() {
        CfiTable t = oneFunction(0x10, new CfiInstructions().nop().gnuArgsSize(32).advanceLoc(4).nop().gnuArgsSize(0));

        assertThat(t.find(F)).isEqualTo(rspBased(8, RegisterRule.SAME));
        assertThat(t.find(F + 8)).isEqualTo(rspBased(8, RegisterRule.SAME));
        assertThat(t.ranges()).isEqualTo(2);
    }

    @Test
    void theSignalAugmentationMarksEveryRowOfItsFdes() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int signal = eh.cie("zRS", EhFrameBuilder.PCREL_SDATA4, 1, -8, RA, new CfiInstructions().defCfa(RSP, 8));
        eh.fde(signal, F, 0x10, new CfiInstructions().advanceLoc(4).defCfaOffset(160));
        eh.fde(eh.standardCie(), F + 0x10, 0x10, new CfiInstructions());
        CfiTable t = parse(eh);

        assertThat(t.find(F).signalFrame()).isTrue();
        assertThat(t.find(F + 4).signalFrame()).isTrue();
        assertThat(t.find(F + 0x10).signalFrame()).isFalse();
    }

    @Test
    void aReturnColumnOtherThanRipLeavesTheReturnAddressUndefined() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int cie = eh.cie("zR", EhFrameBuilder.PCREL_SDATA4, 1, -8, 30, new CfiInstructions().defCfa(RSP, 8).offset(30, 1));
        eh.fde(cie, F, 0x10, new CfiInstructions());

        assertThat(parse(eh).find(F).returnAddress()).isEqualTo(RegisterRule.UNDEFINED);
    }

    @Test
    void cieWithoutAugmentationUsesAbsoluteAddresses() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int cie = eh.cie("", EhFrameBuilder.ABSPTR, 1, -8, RA, new CfiInstructions().defCfa(RSP, 8).offset(RA, 1));
        eh.fde(cie, 0x7000_0000_1000L, 0x10, new CfiInstructions().advanceLoc(1).defCfaOffset(16));
        CfiTable t = parse(eh);

        assertThat(t.find(0x7000_0000_1000L)).isEqualTo(rspBased(8, RegisterRule.SAME));
        assertThat(t.find(0x7000_0000_1001L)).isEqualTo(rspBased(16, RegisterRule.SAME));
        assertThat(t.find(0x7000_0000_1010L)).isNull();
    }

    @Test
    void adjacentFunctionsUnderSeveralCiesKeepTheirOwnRules() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int first = eh.standardCie();
        int second = eh.cie("zR", EhFrameBuilder.PCREL_SDATA4, 1, -8, RA,
                new CfiInstructions().defCfa(RSP, 16).offset(RA, 1));
        eh.fde(first, F, 0x10, new CfiInstructions());
        eh.fde(second, F + 0x10, 0x10, new CfiInstructions());
        eh.fde(first, F + 0x40, 0x10, new CfiInstructions().advanceLoc(2).defCfaOffset(32));
        CfiTable t = parse(eh);

        assertThat(t.find(F + 0xf).cfaOffset()).isEqualTo(8);
        assertThat(t.find(F + 0x10).cfaOffset()).isEqualTo(16);
        assertThat(t.find(F + 0x1f).cfaOffset()).isEqualTo(16);
        assertThat(t.find(F + 0x20)).isNull();
        assertThat(t.find(F + 0x3f)).isNull();
        assertThat(t.find(F + 0x41).cfaOffset()).isEqualTo(8);
        assertThat(t.find(F + 0x42).cfaOffset()).isEqualTo(32);
        assertThat(t.functionStart(F + 0x15)).isEqualTo(F + 0x10);
        assertThat(t.functionStart(F + 0x45)).isEqualTo(F + 0x40);
        assertThat(t.distinctRules()).isEqualTo(3);
    }

    @Test
    void anUnknownInstructionIsMalformed() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        eh.fde(eh.standardCie(), F, 0x10, new CfiInstructions().raw(0x3e));

        assertThatThrownBy(() -> parse(eh)).isInstanceOf(ElfFormatException.class).hasMessageContaining("0x3e");
    }
}
