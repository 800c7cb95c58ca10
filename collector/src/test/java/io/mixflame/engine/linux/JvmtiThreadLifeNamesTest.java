package io.mixflame.engine.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.engine.ThreadLifeNames;
import io.mixflame.process.linux.ProcThreadSelf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

    private static int keyOf(Map<Integer, String> map, String value) {
        for (Map.Entry<Integer, String> e : map.entrySet()) {
            if (e.getValue().equals(value)) {
                return e.getKey();
            }
        }
        throw new AssertionError(value + " not found");
    }
}
