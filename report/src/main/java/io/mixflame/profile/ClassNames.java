package io.mixflame.profile;

import java.util.Arrays;

/**
 * Class names as async-profiler spells them in allocation and lock stacks ({@code java.lang.Integer[]},
 * {@code int[]}), from and to the JVM's forms ({@code [Ljava.lang.Integer;}, {@code [I}, {@code java/lang/String}).
 */
public final class ClassNames {
    private static final String PRIMITIVE_CODES = "ZBCSIJFD";
    private static final String[] PRIMITIVES = {"boolean", "byte", "char", "short", "int", "long", "float", "double"};

    private ClassNames() {
    }

    /**
     * The readable name of a class named in the JVM's binary ({@code [Ljava.lang.Integer;}) or internal
     * ({@code [Ljava/lang/Integer;}) form: dotted, arrays as {@code []} after the element's name. A name that is not
     * an array descriptor is only dotted.
     */
    public static String readable(String jvmName) {
        int dims = 0;
        while (dims < jvmName.length() && jvmName.charAt(dims) == '[') {
            dims++;
        }
        String element = jvmName.substring(dims);
        if (dims > 0) {
            int code = element.length() == 1 ? PRIMITIVE_CODES.indexOf(element.charAt(0)) : -1;
            if (code >= 0) {
                element = PRIMITIVES[code];
            } else if (element.length() > 2 && element.charAt(0) == 'L' && element.endsWith(";")) {
                element = element.substring(1, element.length() - 1);
            }
        }
        StringBuilder sb = new StringBuilder(element.length() + 2 * dims).append(element.replace('/', '.'));
        for (int i = 0; i < dims; i++) {
            sb.append("[]");
        }
        return sb.toString();
    }

    /** The JVM's internal form of a readable name: {@code int[]} is {@code [I}, {@code a.B[]} is {@code [La/B;}. */
    public static String internal(String readable) {
        int dims = 0;
        int end = readable.length();
        while (end >= 2 && readable.startsWith("[]", end - 2)) {
            dims++;
            end -= 2;
        }
        String element = readable.substring(0, end).replace('.', '/');
        if (dims == 0) {
            return element;
        }
        StringBuilder sb = new StringBuilder(element.length() + dims + 2);
        for (int i = 0; i < dims; i++) {
            sb.append('[');
        }
        int primitive = Arrays.asList(PRIMITIVES).indexOf(element);
        if (primitive >= 0) {
            return sb.append(PRIMITIVE_CODES.charAt(primitive)).toString();
        }
        return sb.append('L').append(element).append(';').toString();
    }
}
