package io.mixflame.report;

/**
 * Removes the parameter list from a demangled C++ function name, as async-profiler shows native frames unless
 * asked for signatures: {@code Foo::bar(int, char const*) const} becomes {@code Foo::bar}.
 *
 * <p>The parameter list is the last balanced parenthesised group, and only when what follows it is a qualifier
 * ({@code const}, {@code &&}, {@code [clone .cold]}, an MSVC {@code __ptr64}), not more of the name. So parentheses
 * inside the name survive: template arguments ({@code std::function<void (int)>::operator()}), lambdas
 * ({@code {lambda(int)#1}}), {@code (anonymous namespace)}, and the {@code ()} of {@code operator()} itself. A name
 * that already lost its parameters is returned unchanged, so the transform can be applied to text read back.
 */
final class CxxParameters {

    private static final String OPERATOR_CALL = "operator";

    private CxxParameters() {
    }

    /** The name without its trailing parameter list, or {@code name} itself when it has none. */
    static String strip(String name) {
        int close = name.lastIndexOf(')');
        if (close < 0 || !onlyQualifiersAfter(name, close + 1)) {
            return name;
        }
        int open = matchingOpen(name, close);
        // Nothing before the group: it is the whole name, not a list after one.
        if (open <= 0) {
            return name;
        }
        // "operator()" with nothing after it is the call operator's name, its parameters already gone.
        if (open == close - 1 && name.startsWith(OPERATOR_CALL, open - OPERATOR_CALL.length())) {
            return name;
        }
        return name.substring(0, open).stripTrailing();
    }

    private static int matchingOpen(String name, int close) {
        int depth = 0;
        for (int i = close; i >= 0; i--) {
            char c = name.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    // Characters of the name proper (scopes, templates, lambdas' numbering, another group) mean the group closed
    // at `from` was part of the name.
    private static boolean onlyQualifiersAfter(String name, int from) {
        for (int i = from; i < name.length(); i++) {
            switch (name.charAt(i)) {
                case ':', '(', ')', '<', '>', '{', '}', '#', ',', '\'' -> {
                    return false;
                }
                default -> {
                    // a qualifier's letters, spaces, '&', '*', or a clone suffix's ".[]"
                }
            }
        }
        return true;
    }
}
