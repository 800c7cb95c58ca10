package io.mixflame.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who a profile in OpenTelemetry's profiles format is of: the resource's {@code service.name} and further
 * attributes (such as {@code process.pid} and the user's static tags), each a string.
 *
 * @param serviceName the {@code service.name} resource attribute
 * @param attributes  other resource attributes, in the order given; none may be {@code service.name}
 */
public record OtlpResource(String serviceName, Map<String, String> attributes) {
    /** What OpenTelemetry's resource semantic conventions name a service nobody named. */
    public static final OtlpResource UNNAMED = new OtlpResource("unknown_service:java", Map.of());

    public OtlpResource {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }
}
