package io.mixflame.agent.labels;

/**
 * The {@code endpoint} a request's server span names: its method and its route where the instrumentation set one
 * ({@code http.route}, a template such as {@code /users/{id}}), else its method and path with the segments that look
 * like ids ({@code 42}, {@code 3f2a9c0e…}, a UUID) as {@code *}, so that each endpoint is one value however many ids
 * its requests carry. Bounded: {@value #MAX_SEGMENTS} segments and {@value #MAX_CHARS} characters at most.
 */
final class EndpointNames {
    static final int MAX_SEGMENTS = 8;
    static final int MAX_CHARS = 128;
    /** A segment of this many characters or more with a digit in it is an id. */
    private static final int ID_LENGTH = 8;

    private EndpointNames() {
    }

    /** The endpoint of a request; null where it has neither route nor path. */
    static String of(String method, String route, String path) {
        String where = route != null && !route.isEmpty() ? route : path == null || path.isEmpty() ? null
                : normalised(path);
        if (where == null) {
            return null;
        }
        String name = method == null || method.isEmpty() ? where : method + " " + where;
        return name.length() <= MAX_CHARS ? name : name.substring(0, MAX_CHARS);
    }

    /** {@code path} with its id-like segments as {@code *}, cut after {@value #MAX_SEGMENTS} segments. */
    static String normalised(String path) {
        StringBuilder b = new StringBuilder(Math.min(path.length(), MAX_CHARS));
        int segments = 0;
        int from = path.startsWith("/") ? 1 : 0;
        while (from <= path.length() && segments < MAX_SEGMENTS) {
            int end = path.indexOf('/', from);
            if (end < 0) {
                end = path.length();
            }
            String segment = path.substring(from, end);
            b.append('/').append(isId(segment) ? "*" : segment);
            segments++;
            from = end + 1;
            if (end == path.length()) {
                break;
            }
        }
        if (from < path.length() && segments == MAX_SEGMENTS) {
            b.append("/…");
        }
        return b.toString();
    }

    private static boolean isId(String segment) {
        boolean digit = false;
        boolean allDigits = !segment.isEmpty();
        for (int i = 0; i < segment.length(); i++) {
            boolean d = Character.isDigit(segment.charAt(i));
            digit |= d;
            allDigits &= d;
        }
        return allDigits || digit && segment.length() >= ID_LENGTH;
    }
}
