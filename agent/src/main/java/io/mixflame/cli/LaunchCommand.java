package io.mixflame.cli;

import io.mixflame.agent.AgentEntry;
import io.mixflame.agent.AgentOptions;
import io.mixflame.agent.labels.LabelCapture;
import io.mixflame.agent.labels.LabelOption;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code launch OPTIONS -- [-cp CLASSPATH] MAINCLASS [ARGS...]}: starts profiling in this JVM as
 * {@code -javaagent:mixflame.jar=OPTIONS} would, then runs the application's {@code main} on this thread from
 * CLASSPATH, in a class loader of its own whose parent is the platform loader (the application sees the JDK and its
 * own classes, not the profiler's). For runtimes without java.instrument — jlink images — where {@code -javaagent}
 * cannot be used. The JVM then ends as the application makes it end; the profile is written at exit as the agent
 * writes it.
 */
final class LaunchCommand {
    static final String USAGE = "usage: launch OPTIONS -- [-cp CLASSPATH] MAINCLASS [ARGS...]";
    /** What {@link #run} returns when the application's main returned: the JVM goes on until its threads end. */
    static final int APPLICATION_RETURNED = -1;

    private LaunchCommand() {
    }

    static int run(List<String> args, PrintStream err) {
        int dashes = args.indexOf("--");
        if (dashes != 1 || args.size() < 3) {
            err.println(USAGE);
            return 2;
        }
        String optionText = args.get(0);
        AgentOptions options;
        try {
            options = AgentOptions.parseAtStartup(optionText);
        } catch (IllegalArgumentException e) {
            err.println("mixflame launch: bad options: " + e.getMessage());
            return 2;
        }
        List<String> app = args.subList(2, args.size());
        String classPath = ".";
        int at = 0;
        if (app.get(0).equals("-cp") || app.get(0).equals("-classpath") || app.get(0).equals("--class-path")) {
            if (app.size() < 3) {
                err.println(USAGE);
                return 2;
            }
            classPath = app.get(1);
            at = 2;
        }
        String mainClass = app.get(at);
        String[] mainArgs = app.subList(at + 1, app.size()).toArray(new String[0]);
        Method main;
        URLClassLoader loader;
        try {
            loader = new URLClassLoader("app", urls(classPath), parentFor(options, err));
            main = loader.loadClass(mainClass).getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                throw new NoSuchMethodException("main is not static");
            }
        } catch (ClassNotFoundException | LinkageError e) {
            err.println("mixflame launch: cannot load " + mainClass + " from " + classPath + ": " + e);
            return 2;
        } catch (NoSuchMethodException | IOException e) {
            err.println("mixflame launch: " + mainClass + " has no public static void main(String[]): " + e.getMessage());
            return 2;
        }
        // As -javaagent starts: the options file, MIXFLAME_OPTIONS and Pyroscope's settings count too.
        AgentEntry.handle(optionText, null, false);
        System.setProperty("java.class.path", classPath);
        Thread.currentThread().setContextClassLoader(loader);
        try {
            main.invoke(null, (Object) mainArgs);
            return APPLICATION_RETURNED;
        } catch (InvocationTargetException e) {
            // As the java launcher reports an exception out of main; the exit status is 1, as it is there.
            err.print("Exception in thread \"" + Thread.currentThread().getName() + "\" ");
            e.getCause().printStackTrace(err);
            return 1;
        } catch (IllegalAccessException e) {
            err.println("mixflame launch: " + mainClass + ".main cannot be called: " + e.getMessage());
            return 2;
        }
    }

    /**
     * The application loader's parent: the platform loader, or, with {@code labels}, a loader below it that holds the
     * label bridge, which the application's {@code mixflame-api} finds through its loader's parents (a launch has no
     * instrumentation to put the bridge in the bootstrap loader).
     */
    private static ClassLoader parentFor(AgentOptions options, PrintStream err) {
        if (options.labels() == LabelOption.OFF) {
            return ClassLoader.getPlatformClassLoader();
        }
        try {
            return LabelCapture.launchParent();
        } catch (IOException | RuntimeException e) {
            err.println("mixflame launch: labels refused: " + e.getMessage());
            return ClassLoader.getPlatformClassLoader();
        }
    }

    /** The class path's entries as URLs; {@code dir/*} stands for the jars in dir, as for the java launcher. */
    static URL[] urls(String classPath) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.endsWith("*") && (entry.length() == 1 || entry.charAt(entry.length() - 2) == File.separatorChar
                    || entry.charAt(entry.length() - 2) == '/')) {
                Path dir = Path.of(entry.substring(0, entry.length() - 1).isEmpty() ? "."
                        : entry.substring(0, entry.length() - 1));
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.{jar,JAR}")) {
                    for (Path jar : jars) {
                        urls.add(url(jar));
                    }
                }
            } else {
                urls.add(url(Path.of(entry)));
            }
        }
        return urls.toArray(new URL[0]);
    }

    private static URL url(Path p) throws MalformedURLException {
        return p.toAbsolutePath().toUri().toURL();
    }
}
