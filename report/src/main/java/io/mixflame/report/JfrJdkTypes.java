package io.mixflame.report;

import org.openjdk.jmc.flightrecorder.writer.api.Type;
import org.openjdk.jmc.flightrecorder.writer.api.TypeStructureBuilder;
import org.openjdk.jmc.flightrecorder.writer.api.Types;

/**
 * The JDK's types of a stack trace, declared for JMC's writer as the JDK declares them. The writer's own
 * declarations ({@code withJdkTypeInitialization}) put stack frames in a constant pool, which the JDK's parser
 * cannot read back (its {@code RecordedStackTrace.getFrames()} fails with a ClassCastException, JDK 17 and 25):
 * here frames are written inline, as the JDK writes them.
 */
final class JfrJdkTypes {
    private static final String ANNOTATION = "java.lang.annotation.Annotation";

    private JfrJdkTypes() {
    }

    static void register(Types types) {
        types.getOrAdd(Types.JDK.ANNOTATION_TIMESTAMP, ANNOTATION, b -> b.addField("value", Types.Builtin.STRING));
        Type threadGroup = types.getOrAdd(Types.JDK.THREAD_GROUP, b -> b
                .addField("parent", b.selfType()).addField("name", Types.Builtin.STRING));
        types.getOrAdd(Types.JDK.THREAD, b -> b
                .addField("osName", Types.Builtin.STRING).addField("osThreadId", Types.Builtin.LONG)
                .addField("javaName", Types.Builtin.STRING).addField("javaThreadId", Types.Builtin.LONG)
                .addField("group", threadGroup));
        Type symbol = types.getOrAdd(Types.JDK.SYMBOL, b -> b.addField("string", Types.Builtin.STRING));
        Type classLoader = types.getOrAdd(Types.JDK.CLASS_LOADER, b -> b
                .addField("type", Types.JDK.CLASS).addField("name", symbol));
        Type module = types.getOrAdd(Types.JDK.MODULE, b -> b
                .addField("name", symbol).addField("version", symbol).addField("location", symbol)
                .addField("classLoader", classLoader));
        Type pkg = types.getOrAdd(Types.JDK.PACKAGE, b -> b
                .addField("name", symbol).addField("module", module).addField("exported", Types.Builtin.BOOLEAN));
        Type cls = types.getOrAdd(Types.JDK.CLASS, b -> b
                .addField("classLoader", classLoader).addField("name", symbol).addField("package", pkg)
                .addField("modifiers", Types.Builtin.INT).addField("hidden", Types.Builtin.BOOLEAN));
        Type method = types.getOrAdd(Types.JDK.METHOD, b -> b
                .addField("type", cls).addField("name", symbol).addField("descriptor", symbol)
                .addField("modifiers", Types.Builtin.INT).addField("hidden", Types.Builtin.BOOLEAN));
        Type frameType = types.getOrAdd(Types.JDK.FRAME_TYPE, b -> b.addField("description", Types.Builtin.STRING));
        TypeStructureBuilder frame = types.typeStructureBuilder()
                .addField("method", method).addField("lineNumber", Types.Builtin.INT)
                .addField("bytecodeIndex", Types.Builtin.INT).addField("type", frameType);
        Type stackFrame = types.getOrAdd(Types.JDK.STACK_FRAME.getTypeName(), null, false, frame.build());
        types.getOrAdd(Types.JDK.STACK_TRACE, b -> b
                .addField("truncated", Types.Builtin.BOOLEAN)
                .addField("frames", stackFrame, f -> f.asArray()));
    }
}
