package io.mixflame.image.dwarf;

/** What a CIE of a module's call frame information says for all its FDEs, as {@link CfiParser} read it. */
final class CfiCie {
    long codeAlign = 1;
    long dataAlign = -8;
    int returnRegister = CfiParser.RA;
    int pointerEncoding;
    boolean signalFrame;
    boolean hasAugmentationData;
    byte[] instructions = new byte[0];
    CfiState initial;
}
