package io.mixflame.agent.labels;

/** What the {@code labels} option asks for: which sources of labels the agent records. */
public enum LabelOption {
    /** No labels (the default). */
    OFF(false, false),
    /** {@code labels=http}: the endpoint of each HTTP request, from the instrumented servers only. */
    HTTP(true, false),
    /** {@code labels=api}: what the application sets through {@code mixflame-api} only. */
    API(false, true),
    /** {@code labels} or {@code labels=all}: both. */
    ALL(true, true);

    private final boolean http;
    private final boolean api;

    LabelOption(boolean http, boolean api) {
        this.http = http;
        this.api = api;
    }

    /** Whether HTTP servers are instrumented. */
    public boolean http() {
        return http;
    }

    /** Whether the API's labels are recorded. */
    public boolean api() {
        return api;
    }

    /**
     * The option's value: none (bare {@code labels}) or {@code all}, {@code http}, {@code api}, {@code off}.
     *
     * @throws IllegalArgumentException for anything else, saying what is expected
     */
    public static LabelOption parse(String value) {
        if (value == null) {
            return ALL;
        }
        return switch (value) {
            case "all" -> ALL;
            case "http" -> HTTP;
            case "api" -> API;
            case "off" -> OFF;
            default -> throw new IllegalArgumentException("labels=" + value + ": expected labels, labels=http, "
                    + "labels=api or labels=off");
        };
    }
}
