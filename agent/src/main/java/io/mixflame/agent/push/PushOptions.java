package io.mixflame.agent.push;

import io.mixflame.process.OwnPid;
import io.mixflame.report.OtlpResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where each period of a looping profile is pushed, and who the profiles are of (which {@code .otlp} files say as
 * well).
 *
 * @param otlp      the OpenTelemetry collector ({@code otlp=}), or null
 * @param pyroscope the Pyroscope server ({@code pyroscope=}), or null
 * @param service   the service's name as {@code service=} gave it (restricted, {@link ServiceName}), or null for
 *                  the name the JVM's command line implies
 * @param tags      static labels ({@code tags=}), in the order given
 * @param auth      how pushes authenticate; its {@code toString()} masks the secrets
 * @param headers   headers each push sends besides its own ({@code header=}, {@code tenant=}); masked too
 */
public record PushOptions(PushAddress otlp, PushAddress pyroscope, String service, Map<String, String> tags,
                          PushAuth auth, PushHeaders headers) {
    /** Nothing pushed, the service named by its command line, no tags. */
    public static final PushOptions NONE = new PushOptions(null, null, null, Map.of(), PushAuth.NONE,
            PushHeaders.NONE);

    public PushOptions {
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(headers, "headers");
    }

    /** As {@link #of(PushAddress, PushAddress, String, Map, String, String, String, PushHeaders, Map)}, no headers. */
    public static PushOptions of(PushAddress otlp, PushAddress pyroscope, String service, Map<String, String> tags,
                                 String authToken, String authUser, String authPassword,
                                 Map<String, String> env) {
        return of(otlp, pyroscope, service, tags, authToken, authUser, authPassword, PushHeaders.NONE, env);
    }

    /**
     * The push options of the agent's options, each null when not given; the credentials not given as options are
     * read from {@code env} when something is pushed.
     *
     * @throws IllegalArgumentException with a one-line message that never holds a secret
     */
    public static PushOptions of(PushAddress otlp, PushAddress pyroscope, String service, Map<String, String> tags,
                                 String authToken, String authUser, String authPassword, PushHeaders headers,
                                 Map<String, String> env) {
        boolean pushes = otlp != null || pyroscope != null;
        if (!pushes && (authToken != null || authUser != null || authPassword != null)) {
            throw new IllegalArgumentException("authtoken=, authuser= and authpassword= go with otlp= or pyroscope=");
        }
        if (!pushes && !headers.isEmpty()) {
            throw new IllegalArgumentException("header= and tenant= go with otlp= or pyroscope=");
        }
        PushAuth auth = pushes ? PushAuth.resolve(authToken, authUser, authPassword, env) : PushAuth.NONE;
        return new PushOptions(otlp, pyroscope, service == null ? null : ServiceName.of(service, null), tags, auth,
                headers);
    }

    /** Whether anything is pushed. */
    public boolean pushes() {
        return otlp != null || pyroscope != null;
    }

    /** The service's name: {@link #service()}, else what this JVM's {@code sun.java.command} implies. */
    public String serviceName() {
        return ServiceName.of(service, System.getProperty("sun.java.command"));
    }

    /**
     * Who the profiles are of in OpenTelemetry's terms: {@link #serviceName()}, {@code process.pid}, the runtime's
     * name and version, then the tags (which win over the others of the same key).
     */
    public OtlpResource resource() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("process.pid", Long.toString(OwnPid.get()));
        putIfSet(attributes, "process.runtime.name", System.getProperty("java.runtime.name"));
        putIfSet(attributes, "process.runtime.version", System.getProperty("java.runtime.version"));
        attributes.putAll(tags);
        return new OtlpResource(serviceName(), attributes);
    }

    /** The targets as a log line names them: {@code otlp http://collector:4318, pyroscope http://pyroscope:4040}. */
    public String describe() {
        List<String> targets = new ArrayList<>(2);
        if (otlp != null) {
            targets.add("otlp " + otlp);
        }
        if (pyroscope != null) {
            targets.add("pyroscope " + pyroscope);
        }
        return String.join(", ", targets);
    }

    private static void putIfSet(Map<String, String> attributes, String key, String value) {
        if (value != null && !value.isEmpty()) {
            attributes.put(key, value);
        }
    }
}
