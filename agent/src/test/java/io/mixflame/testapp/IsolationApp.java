package io.mixflame.testapp;

import com.sun.jna.Library;
import com.sun.jna.Native;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An application with its own JNA and its own SLF4J binding, of other versions than the profiler's: it uses
 * both, reports which versions it got, checks that the profiler's classes are out of its sight, then spins.
 */
public final class IsolationApp {
    /** libc through the application's JNA. */
    public interface LibC extends Library {
        int getpid();
    }

    private IsolationApp() {
    }

    public static void main(String[] args) {
        Logger log = LoggerFactory.getLogger(IsolationApp.class);
        log.info("app logs through {}", LoggerFactory.getILoggerFactory().getClass().getName());
        LibC libc = Native.load("c", LibC.class);
        // The jar JNA came from, not Native.VERSION: the compiler inlines the constant it compiled against.
        String jar = Native.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        System.out.println("app jna " + jar.substring(jar.lastIndexOf('/') + 1) + " getpid " + libc.getpid());
        for (String name : new String[] {"io.mixflame.agent.AgentEntry", "io.mixflame.profile.Frame"}) {
            try {
                Class.forName(name);
                System.out.println("profiler class visible: " + name);
            } catch (ClassNotFoundException e) {
                System.out.println("profiler class hidden: " + name);
            }
        }
        System.out.flush();
        SpinApp.main(new String[] {args.length > 0 ? args[0] : "3"});
    }
}
