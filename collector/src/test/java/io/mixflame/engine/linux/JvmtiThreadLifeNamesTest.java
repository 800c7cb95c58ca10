package io.mixflame.engine.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.engine.ThreadLifeNames;
import io.mixflame.process.linux.ProcThreadSelf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class JvmtiThreadLifeNamesTest {

    @Test
    void threadsTellTheirNamesAsTheyStartAndEndEvenWhenNoneIsTakenUntilTheyAreGone() throws Exception {
        ThreadLifeNames told = JvmtiThreadLifeNames.open();
        assertThat(told).as("the JVM's thread events, in the test's own JVM").isNotNull();
        try {
            assertThat(JvmtiThreadLifeNames.open()).as("one profile at a time").isNull();
            Map<Integer, String> expected = new ConcurrentHashMap<>();
            List<Thread> started = new ArrayList<>();
            // Names beyond ASCII, one of them outside the Basic Multilingual Plane (two surrogates in Java), and a
            // NUL, which the JVM's modified UTF-8 writes as two bytes.
            String[] names = {"plain-worker", "größe-√", "clef-\uD834\uDD1E-end", "nul\u0000inside", "x".repeat(300)};
            for (String name : names) {
                Thread t = new Thread(() -> expected.put(ProcThreadSelf.tid(), name), name);
                started.add(t);
            }
            Thread renamed = new Thread(() -> {
                Thread.currentThread().setName("renamed-after");
                expected.put(ProcThreadSelf.tid(), "renamed-after");
            }, "renamed-before");
            started.add(renamed);
            for (Thread t : started) {
                t.start();
                t.join();
            }
            Map<Integer, List<String>> heard = new LinkedHashMap<>();
            int count = told.take((tid, name, ended) -> heard.computeIfAbsent(tid, k -> new ArrayList<>())
                    .add((ended ? "end " : "start ") + name));
            assertThat(expected).hasSize(started.size());
            for (Map.Entry<Integer, String> e : expected.entrySet()) {
                List<String> said = heard.get(e.getKey());
                assertThat(said).as("thread %d, %s", e.getKey(), e.getValue()).isNotNull();
                assertThat(said.get(said.size() - 1)).as("the last name told is the one it ended with")
                        .isEqualTo("end " + e.getValue());
            }
            assertThat(heard.get(keyOf(expected, "renamed-after")))
                    .containsExactly("start renamed-before", "end renamed-after");
            assertThat(count).isGreaterThanOrEqualTo(2 * started.size());
            assertThat(told.told()).isGreaterThanOrEqualTo(count);
            assertThat(told.dropped()).isZero();
            assertThat(told.take((tid, name, ended) -> { })).as("taken once").isZero();
        } finally {
            told.close();
        }
        Thread after = new Thread(() -> { }, "after-close");
        after.start();
        after.join();
        ThreadLifeNames again = JvmtiThreadLifeNames.open();
        assertThat(again).as("opened again for a later profile").isNotNull();
        try {
            List<String> heard = new ArrayList<>();
            again.take((tid, name, ended) -> heard.add(name));
            assertThat(heard).as("nothing was told while closed").doesNotContain("after-close");
        } finally {
            again.close();
        }
    }

    @Test
    void aThreadTellsTheStackItRunsOnAsItStarts() throws Exception {
        ThreadLifeNames told = JvmtiThreadLifeNames.open();
        assertThat(told).isNotNull();
        try {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            int[] tid = new int[1];
            Thread t = new Thread(() -> {
                tid[0] = ProcThreadSelf.tid();
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "stack-teller");
            t.start();
            running.await();
            // Blocked in the kernel: its stack pointer is the second-last field of its syscall file.
            long sp = 0;
            for (int i = 0; i < 200 && sp == 0; i++) {
                String[] f = Files.readString(Path.of("/proc/self/task/" + tid[0] + "/syscall")).trim().split(" ");
                sp = f.length >= 3 && !f[0].equals("running") ? Long.parseUnsignedLong(f[f.length - 2].substring(2), 16)
                        : 0;
                if (sp == 0) {
                    Thread.sleep(10);
                }
            }
            assertThat(sp).as("the blocked thread's stack pointer").isNotZero();
            long[] stack = new long[2];
            told.take(new ThreadLifeNames.Listener() {
                @Override
                public void told(int id, String name, boolean ended) {
                }

                @Override
                public void stack(int id, long low, long high) {
                    if (id == tid[0]) {
                        stack[0] = low;
                        stack[1] = high;
                    }
                }
            });
            release.countDown();
            t.join();
            assertThat(stack[0]).as("told its stack").isNotZero();
            assertThat(Long.compareUnsigned(stack[0], sp) <= 0 && Long.compareUnsigned(sp, stack[1]) < 0)
                    .as("sp %x within [%x, %x)", sp, stack[0], stack[1]).isTrue();
        } finally {
            told.close();
        }
    }

    private static int keyOf(Map<Integer, String> map, String value) {
        for (Map.Entry<Integer, String> e : map.entrySet()) {
            if (e.getValue().equals(value)) {
                return e.getKey();
            }
        }
        throw new AssertionError(value + " not found");
    }
}
