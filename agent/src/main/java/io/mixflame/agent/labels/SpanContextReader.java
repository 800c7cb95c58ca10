package io.mixflame.agent.labels;

import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.SpanTable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Consumer;

/**
 * What the woven context storage tells the bridge, read: the span of each OpenTelemetry context made current on a
 * thread, its trace and span ids and its local root span's id and name, handed to the label recorder. Reads any copy
 * of OpenTelemetry, the Java agent's shaded one included, through method handles found once per context class: the
 * API's {@code Span.fromContextOrNull} and {@code SpanContext}, the instrumentation API's {@code LocalRootSpan} where
 * it is there (the Java agent has it), and the SDK's {@code ReadableSpan} for names and parents.
 *
 * <p>Runs on the application's threads at every context change: a span made current again (a scope closed back to its
 * parent) is found by identity and costs no read; a new span costs its ids' parse and one record.
 */
final class SpanContextReader implements Consumer<Object> {
    private static final MethodType OBJECT_TO_OBJECT = MethodType.methodType(Object.class, Object.class);
    /** The attribute by which Grafana finds a span's profile (Pyroscope's {@code otel-profiling-java}). */
    static final String PROFILE_ID = "pyroscope.profile.id";

    private final LabelRecorder recorder;
    private final ClassValue<Api> apis = new ClassValue<>() {
        @Override
        protected Api computeValue(Class<?> contextClass) {
            return Api.of(contextClass);
        }
    };
    private final ClassValue<SpanMethods> spanMethods = new ClassValue<>() {
        @Override
        protected SpanMethods computeValue(Class<?> spanClass) {
            return SpanMethods.of(spanClass);
        }
    };

    /** Whether sampled local root spans get {@code pyroscope.profile.id} (where profiles are pushed). */
    private final boolean tagRoots;


    SpanContextReader(LabelRecorder recorder, boolean tagRoots) {
        this.recorder = recorder;
        this.tagRoots = tagRoots;
    }

    @Override
    public void accept(Object context) {
        try {
            recorder.spanCurrent(context == null ? SpanTable.NONE : read(context));
        } catch (Throwable e) {
            // Never the application's problem: its context is made current all the same, the sample has no span.
            recorder.spanCurrent(SpanTable.NONE);
        }
    }

    /** The handle of the span of {@code context}, written now if it is new to the thread; NONE without one. */
    private int read(Object context) throws Throwable {
        Api api = apis.get(context.getClass());
        if (api == null) {
            return SpanTable.NONE;
        }
        Object span = api.spanOf.invokeExact(context);
        if (span == null) {
            return SpanTable.NONE;
        }
        int known = recorder.knownSpan(span);
        if (known != SpanTable.NONE) {
            return known;
        }
        Object spanContext = api.spanContext.invokeExact(span);
        if (!(boolean) api.valid.invokeExact(spanContext)) {
            return SpanTable.NONE;
        }
        String traceId = (String) api.traceId.invokeExact(spanContext);
        String spanId = (String) api.spanId.invokeExact(spanContext);
        if (traceId.length() != 32 || spanId.length() != 16) {
            return SpanTable.NONE;
        }
        long id = hex(spanId, 0);
        Object root = api.localRoot == null ? null : api.localRoot.invokeExact(context);
        long rootId = 0;
        if (root != null) {
            Object rootContext = api.spanContext.invokeExact(root);
            String rootSpanId = (String) api.spanId.invokeExact(rootContext);
            rootId = rootSpanId.length() == 16 ? hex(rootSpanId, 0) : 0;
        } else if (spanMethods.get(span.getClass()).isLocalRoot(span, api)) {
            root = span;
            rootId = id;
        }
        if (tagRoots && root == span && (boolean) api.sampled.invokeExact(spanContext)) {
            // As Pyroscope's OpenTelemetry integration does: the profile of this request is found from its trace.
            Object sameSpan = api.setAttribute.invokeExact(span, PROFILE_ID, spanId);
        }
        long traceHigh = hex(traceId, 0);
        long traceLow = hex(traceId, 16);
        // The span the thread is in already, where it is of the same request: a child span made current inside its
        // parent takes the root's name and endpoint from the parent's record, read once for the request. Without an
        // instrumentation API to ask (an application with the SDK alone), it takes the root itself from there too.
        SpanTable table = recorder.spanTable();
        int outer = recorder.currentSpan();
        if (root != span && table.holds(outer)) {
            // Once per new span of such a thread, beside the span's own objects: no per-thread buffer kept.
            long[] ids = new long[4];
            String name = table.read(outer, ids);
            String outerEndpoint = table.endpoint(outer);
            if (table.holds(outer) && ids[0] == traceHigh && ids[1] == traceLow && ids[3] != 0
                    && (root == null || ids[3] == rootId)) {
                return recorder.spanCurrent(span, traceHigh, traceLow, id, ids[3], name, outerEndpoint);
            }
        }
        String rootName = null;
        String endpoint = null;
        if (root != null) {
            SpanMethods methods = spanMethods.get(root.getClass());
            rootName = methods.name(root);
            endpoint = recorder.spanEndpoints() ? methods.endpoint(root, api) : null;
        }
        return recorder.spanCurrent(span, traceHigh, traceLow, id, rootId, rootName, endpoint);
    }

    /** The 16 hex digits of {@code s} from {@code from}, as a number (a bad digit reads as 0). */
    static long hex(String s, int from) {
        long v = 0;
        for (int i = from; i < from + 16; i++) {
            char c = s.charAt(i);
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 0;
            v = v << 4 | d;
        }
        return v;
    }

    /** One copy of OpenTelemetry's API, as the context class of that copy finds it. */
    private record Api(MethodHandle spanOf, MethodHandle spanContext, MethodHandle valid, MethodHandle remote,
                       MethodHandle traceId, MethodHandle spanId, MethodHandle localRoot, Object[] attributeKeys,
                       MethodHandle sampled, MethodHandle setAttribute) {
        /** The attributes an endpoint is named by, current semantic conventions first, then the older names. */
        static final String[] ATTRIBUTES = {"http.route", "http.request.method", "http.method", "url.path",
                "http.target"};

        /** The API beside context class {@code contextClass}, or null where it is not there. */
        static Api of(Class<?> contextClass) {
            String name = contextClass.getName();
            int at = name.lastIndexOf("io.opentelemetry.context.");
            if (at < 0) {
                return null;
            }
            String prefix = name.substring(0, at);
            ClassLoader loader = contextClass.getClassLoader();
            try {
                Class<?> context = Class.forName(prefix + "io.opentelemetry.context.Context", false, loader);
                Class<?> span = Class.forName(prefix + "io.opentelemetry.api.trace.Span", false, loader);
                Class<?> spanContext = Class.forName(prefix + "io.opentelemetry.api.trace.SpanContext", false, loader);
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                MethodHandle spanOf = lookup.findStatic(span, "fromContextOrNull", MethodType.methodType(span, context));
                return new Api(spanOf.asType(OBJECT_TO_OBJECT),
                        virtual(lookup, span, "getSpanContext", spanContext).asType(OBJECT_TO_OBJECT),
                        virtual(lookup, spanContext, "isValid", boolean.class)
                                .asType(MethodType.methodType(boolean.class, Object.class)),
                        virtual(lookup, spanContext, "isRemote", boolean.class)
                                .asType(MethodType.methodType(boolean.class, Object.class)),
                        virtual(lookup, spanContext, "getTraceId", String.class)
                                .asType(MethodType.methodType(String.class, Object.class)),
                        virtual(lookup, spanContext, "getSpanId", String.class)
                                .asType(MethodType.methodType(String.class, Object.class)),
                        localRoot(lookup, prefix, loader, context, span), attributeKeys(prefix, loader),
                        virtual(lookup, spanContext, "isSampled", boolean.class)
                                .asType(MethodType.methodType(boolean.class, Object.class)),
                        lookup.findVirtual(span, "setAttribute", MethodType.methodType(span, String.class,
                                String.class)).asType(MethodType.methodType(Object.class, Object.class, String.class,
                                String.class)));
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }

        /** The API's {@code AttributeKey.stringKey} of each of {@link #ATTRIBUTES}; nulls where it has none. */
        private static Object[] attributeKeys(String prefix, ClassLoader loader) {
            Object[] keys = new Object[ATTRIBUTES.length];
            try {
                Class<?> c = Class.forName(prefix + "io.opentelemetry.api.common.AttributeKey", false, loader);
                Method stringKey = c.getMethod("stringKey", String.class);
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = stringKey.invoke(null, ATTRIBUTES[i]);
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // No endpoints from this copy's spans.
            }
            return keys;
        }

        private static MethodHandle virtual(MethodHandles.Lookup lookup, Class<?> type, String method,
                                            Class<?> returns) throws ReflectiveOperationException {
            return lookup.findVirtual(type, method, MethodType.methodType(returns));
        }

        /**
         * The instrumentation API's {@code LocalRootSpan.fromContextOrNull} beside the context's copy: the Java agent
         * relocates {@code io.opentelemetry.instrumentation} under its shaded package without the second
         * {@code io.opentelemetry}. Null where neither is there (an application with the SDK alone).
         */
        private static MethodHandle localRoot(MethodHandles.Lookup lookup, String prefix, ClassLoader loader,
                                              Class<?> context, Class<?> span) {
            for (String name : new String[] {prefix + "io.opentelemetry.instrumentation.api.instrumenter.LocalRootSpan",
                    prefix + "instrumentation.api.instrumenter.LocalRootSpan"}) {
                try {
                    Class<?> c = Class.forName(name, false, loader);
                    return lookup.findStatic(c, "fromContextOrNull", MethodType.methodType(span, context))
                            .asType(OBJECT_TO_OBJECT);
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    // Not this one.
                }
            }
            return null;
        }
    }

    /**
     * What the SDK's spans say beyond the API: {@code ReadableSpan.getName()} and {@code getParentSpanContext()},
     * found on the public interfaces a span class implements; null handles where it has none (a no-op span).
     */
    private record SpanMethods(MethodHandle name, MethodHandle parent, MethodHandle kind, MethodHandle attribute) {
        private static final MethodType OBJECTS_TO_OBJECT = MethodType.methodType(Object.class, Object.class,
                Object.class);

        static SpanMethods of(Class<?> spanClass) {
            MethodHandle name = null;
            MethodHandle parent = null;
            MethodHandle kind = null;
            MethodHandle attribute = null;
            for (Class<?> c = spanClass; c != null; c = c.getSuperclass()) {
                for (Class<?> i : c.getInterfaces()) {
                    if (!Modifier.isPublic(i.getModifiers())) {
                        continue;
                    }
                    name = name != null ? name : method(i, "getName", MethodType.methodType(String.class, Object.class));
                    parent = parent != null ? parent : method(i, "getParentSpanContext", OBJECT_TO_OBJECT);
                    kind = kind != null ? kind : method(i, "getKind", OBJECT_TO_OBJECT);
                    attribute = attribute != null ? attribute : attributeMethod(i);
                }
            }
            return new SpanMethods(name, parent, kind, attribute);
        }

        /** {@code ReadableSpan.getAttribute(AttributeKey)}, where the interface has it. */
        private static MethodHandle attributeMethod(Class<?> type) {
            for (Method m : type.getMethods()) {
                if (m.getName().equals("getAttribute") && m.getParameterCount() == 1
                        && Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
                    try {
                        return MethodHandles.publicLookup().unreflect(m).asType(OBJECTS_TO_OBJECT);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        return null;
                    }
                }
            }
            return null;
        }

        /**
         * The endpoint of a server span's request ({@link EndpointNames}); null for a span of another kind, or
         * where the span says neither route nor path.
         */
        String endpoint(Object span, Api api) throws Throwable {
            if (kind == null || attribute == null || api.attributeKeys[0] == null) {
                return null;
            }
            Object k = kind.invokeExact(span);
            if (!(k instanceof Enum<?> e) || !e.name().equals("SERVER")) {
                return null;
            }
            Object[] keys = api.attributeKeys;
            Object route = attribute.invokeExact(span, keys[0]);
            Object method = attribute.invokeExact(span, keys[1]);
            method = method != null ? method : attribute.invokeExact(span, keys[2]);
            Object path = route != null ? null : attribute.invokeExact(span, keys[3]);
            path = path != null || route != null ? path : attribute.invokeExact(span, keys[4]);
            return EndpointNames.of((String) method, (String) route, (String) path);
        }

        private static MethodHandle method(Class<?> type, String name, MethodType as) {
            try {
                Method m = type.getMethod(name);
                return Modifier.isPublic(m.getDeclaringClass().getModifiers())
                        ? MethodHandles.publicLookup().unreflect(m).asType(as) : null;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        String name(Object span) throws Throwable {
            return name == null ? null : (String) name.invokeExact(span);
        }

        /** Whether {@code span} is a local root: its parent is none, or another process's. */
        boolean isLocalRoot(Object span, Api api) throws Throwable {
            if (parent == null) {
                return false;
            }
            Object p = parent.invokeExact(span);
            return p == null || !(boolean) api.valid.invokeExact(p) || (boolean) api.remote.invokeExact(p);
        }
    }
}
