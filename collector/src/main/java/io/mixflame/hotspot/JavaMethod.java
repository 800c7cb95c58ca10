package io.mixflame.hotspot;

/**
 * A Java method named from HotSpot's metadata.
 *
 * @param holder      the class, in internal form ({@code java/lang/String})
 * @param name        the method's name
 * @param signature   its descriptor ({@code (I)V})
 * @param sourceFile  the class's source file name, such as {@code String.java}, or null when unknown
 * @param lineNumbers bci → line pairs, flattened {@code [bci0, line0, bci1, line1, ...]}, empty without a table
 */
public record JavaMethod(String holder, String name, String signature, String sourceFile, int[] lineNumbers) {

    /**
     * What a frame's method is when its class was unloaded before the frame could be named: its metadata is freed,
     * and nothing read from it can be trusted. Compared by identity.
     */
    public static final JavaMethod UNLOADED = new JavaMethod("[unloaded class]", "[unloaded method]", "", null,
            new int[0]);

    /** Whether this is {@link #UNLOADED}. */
    public boolean isUnloaded() {
        return this == UNLOADED;
    }

    /**
     * The class's binary name as {@code Class.getName()} gives it: dots for slashes, and for a hidden class (a lambda,
     * a lambda form) the slash before its address suffix, which HotSpot keeps as {@code +}.
     */
    public static String binaryName(String internalName) {
        String dotted = internalName.replace('/', '.');
        int hidden = dotted.lastIndexOf("+0x");
        return hidden < 0 ? dotted : dotted.substring(0, hidden) + "/" + dotted.substring(hidden + 1);
    }

    /** The method's first line, the least of its line table; 0 without one. */
    public int firstLine() {
        int first = 0;
        for (int i = 1; i < lineNumbers.length; i += 2) {
            if (lineNumbers[i] > 0 && (first == 0 || lineNumbers[i] < first)) {
                first = lineNumbers[i];
            }
        }
        return first;
    }

    /** The source line of a bytecode index; 0 when unknown. */
    public int lineOf(int bci) {
        int b = bci < 0 ? 0 : bci;
        int line = 0;
        int bestBci = -1;
        for (int i = 0; i + 1 < lineNumbers.length; i += 2) {
            int start = lineNumbers[i];
            if (start == b) {
                return lineNumbers[i + 1];
            }
            if (start < b && start > bestBci) {
                bestBci = start;
                line = lineNumbers[i + 1];
            }
        }
        return line;
    }
}
