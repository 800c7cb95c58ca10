package io.mixflame.agent.push;

import io.mixflame.agent.http.HttpRequestHead;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Headers every push sends besides its own: {@code header=NAME:VALUE} (repeatable) and the tenant of a multi-tenant
 * Pyroscope or Grafana Cloud ({@code tenant=ID}, sent as {@value #TENANT}). A class rather than a record, so that
 * {@link #toString()} names the headers and masks their values, which may be keys; no message of this class holds a
 * value either.
 */
public final class PushHeaders {
    /** The header a tenant is sent in, as Grafana's multi-tenant services read it. */
    public static final String TENANT = "X-Scope-OrgID";
    /** No headers. */
    public static final PushHeaders NONE = new PushHeaders(Map.of());
    /** The most headers. */
    public static final int MAX_HEADERS = 16;
    private static final int MAX_NAME = 64;
    private static final int MAX_VALUE = 1024;
    /** Set by the push itself or by the auth options, or meaningless on a request of its own. */
    private static final Set<String> RESERVED = Set.of("authorization", "content-type", "content-length",
            "content-encoding", "host", "connection", "transfer-encoding", "user-agent", "expect");

    private final Map<String, String> headers;

    private PushHeaders(Map<String, String> headers) {
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /**
     * The headers of {@code header=NAME:VALUE} options and of {@code tenant=} (null when not given), in that order.
     *
     * @throws IllegalArgumentException with a one-line message that names the header, never its value
     */
    public static PushHeaders of(Iterable<String> specs, String tenant) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("header= wants NAME:VALUE");
            }
            add(headers, spec.substring(0, colon).strip(), spec.substring(colon + 1).strip(), "header=");
        }
        if (tenant != null) {
            add(headers, TENANT, tenant.strip(), "tenant=");
        }
        return headers.isEmpty() ? NONE : new PushHeaders(headers);
    }

    private static void add(Map<String, String> headers, String name, String value, String source) {
        if (name.isEmpty() || name.length() > MAX_NAME || !HttpRequestHead.isToken(name)) {
            throw new IllegalArgumentException(source + " a header's name is letters, digits and !#$%&'*+-.^_`|~, at"
                    + " most " + MAX_NAME + " characters");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(source + " " + name + " is set by the push itself"
                    + (name.equalsIgnoreCase("authorization") ? " (authtoken=, authuser=, authpassword=)" : ""));
        }
        if (value.isEmpty() || value.length() > MAX_VALUE || !printable(value)) {
            throw new IllegalArgumentException(source + " the value of " + name + " must be 1 to " + MAX_VALUE
                    + " printable characters");
        }
        for (String given : headers.keySet()) {
            if (given.equalsIgnoreCase(name)) {
                throw new IllegalArgumentException(source + " " + name + " given twice");
            }
        }
        headers.put(name, value);
        if (headers.size() > MAX_HEADERS) {
            throw new IllegalArgumentException("more than " + MAX_HEADERS + " headers");
        }
    }

    private static boolean printable(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f || c > 0x7e && c < 0xa0) {
                return false;
            }
        }
        return true;
    }

    /** The headers, in the order given; their values are secrets to every log and message. */
    public Map<String, String> headers() {
        return headers;
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return headers.isEmpty();
    }

    /** The headers' names, each value masked. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (String name : headers.keySet()) {
            sb.append(sb.length() == 1 ? "" : ", ").append(name).append(": ***");
        }
        return sb.append(']').toString();
    }
}
