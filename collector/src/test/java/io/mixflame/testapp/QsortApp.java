package io.mixflame.testapp;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * Java calls libc's {@code qsort} through JNA with a Java comparator as the callback; the comparator's first call
 * parks thread {@code mf-qsort} inside it, so that one stack holds Java, JNA, libc, JNA again and Java.
 */
public final class QsortApp {
    static final Object LOCK = new Object();
    static volatile boolean inside;

    /** libc through JNA. */
    public interface LibC extends Library {
        void qsort(Pointer base, long count, long size, IntComparator comparator);
    }

    /** The comparator, called from C. */
    public interface IntComparator extends Callback {
        int compare(Pointer a, Pointer b);
    }

    private QsortApp() {
    }

    public static void main(String[] args) throws Exception {
        LibC libc = Native.load("c", LibC.class);
        Thread t = new Thread(() -> sortWithCallback(libc), "mf-qsort");
        t.setDaemon(true);
        t.start();
        while (!inside || t.getState() != Thread.State.WAITING) {
            Thread.sleep(10);
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(120_000);
    }

    static void sortWithCallback(LibC libc) {
        Memory ints = new Memory(4 * 64);
        for (int i = 0; i < 64; i++) {
            ints.setInt(4L * i, 64 - i);
        }
        libc.qsort(ints, 64, 4, QsortApp::compareParkingOnce);
    }

    static int compareParkingOnce(Pointer a, Pointer b) {
        if (!inside) {
            synchronized (LOCK) {
                inside = true;
                try {
                    LOCK.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return Integer.compare(a.getInt(0), b.getInt(0));
    }
}
