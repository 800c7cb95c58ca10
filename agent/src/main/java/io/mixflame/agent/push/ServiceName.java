package io.mixflame.agent.push;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The name of the profiled service ({@code service=}): OpenTelemetry's {@code service.name}, Pyroscope's application.
 *
 * <p>Without the option it comes from how the JVM was started, the first word of the system property
 * {@code sun.java.command}: {@code java -jar /opt/shop/checkout-2.1.jar} is {@code checkout-2.1}, {@code java
 * com.example.shop.Checkout} is {@code Checkout}, {@code java -m com.example.shop/com.example.shop.Main} is the module,
 * {@code com.example.shop}, and {@code java Checkout.java} is {@code Checkout}; with nothing to go by it is
 * {@value #FALLBACK}.
 *
 * <p>A name goes into URLs and other backends' labels, so any name is restricted to letters, digits, {@code .},
 * {@code _} and {@code -} (anything else becomes {@code _}) and to {@value #MAX_LENGTH} characters.
 */
public final class ServiceName {
    /** The name when nothing says otherwise. */
    public static final String FALLBACK = "java";
    /** The longest name. */
    public static final int MAX_LENGTH = 128;
    private static final Pattern MODULE_AND_CLASS = Pattern.compile("[\\w.$]+/[\\w.$]+");

    private ServiceName() {
    }

    /**
     * The service's name: {@code option} when given (not null), else the one {@code javaCommand} (the value of
     * {@code sun.java.command}, or null) implies; restricted as the class says.
     */
    public static String of(String option, String javaCommand) {
        return restricted(option != null ? option : fromCommand(javaCommand));
    }

    /** The name {@code sun.java.command} implies, not yet restricted. */
    static String fromCommand(String javaCommand) {
        String command = javaCommand == null ? "" : javaCommand.strip();
        if (command.isEmpty()) {
            return FALLBACK;
        }
        int space = command.indexOf(' ');
        String first = space < 0 ? command : command.substring(0, space);
        String lower = first.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".jar") || lower.endsWith(".java")) {
            String file = first.substring(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1);
            return file.substring(0, file.lastIndexOf('.'));
        }
        if (MODULE_AND_CLASS.matcher(first).matches()) {
            return first.substring(0, first.indexOf('/'));
        }
        return first.substring(first.lastIndexOf('.') + 1);
    }

    /** {@code name} with characters outside {@code [A-Za-z0-9._-]} replaced by {@code _}, cut to length. */
    static String restricted(String name) {
        StringBuilder sb = new StringBuilder(Math.min(name.length(), MAX_LENGTH));
        for (int i = 0; i < name.length() && sb.length() < MAX_LENGTH; i++) {
            char c = name.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.'
                    || c == '_' || c == '-';
            sb.append(allowed ? c : '_');
        }
        return sb.length() == 0 ? FALLBACK : sb.toString();
    }
}
