package io.mixflame.examples.windows;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.x64.X64Registers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text dump {@code unwind_shapes.exe} writes: the process's modules (each one's headers as loaded, and the whole
 * loaded image of one whose file is another build), the addresses of its own functions, and per worker thread its
 * registers, stack limits, a copy of its stack and DbgHelp's StackWalk64 walk of it.
 *
 * @param modules every loaded module
 * @param memory  the process's memory that was dumped, in runs of contiguous bytes by address
 * @param symbols the program's own function names by address
 * @param threads the workers by name, in the program's order
 */
record PeStackDump(List<Module> modules, Map<Long, byte[]> memory, Map<String, Long> symbols,
        Map<String, DumpedThread> threads) {
    /**
     * A loaded module as the process listed it.
     *
     * @param notItsFile whether the file it is named by holds another build than the one loaded
     */
    record Module(long base, long size, String windowsPath, boolean notItsFile) {
        String fileName() {
            return windowsPath.substring(windowsPath.lastIndexOf('\\') + 1).toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One frame of StackWalk64's walk: its AddrPC, AddrStack, AddrFrame, AddrReturn and DbgHelp's name. */
    record OracleFrame(long pc, long sp, long frame, long returnAddress, String name) {
    }

    /**
     * A suspended worker.
     *
     * @param stackLow   the TEB's StackLimit
     * @param stackHigh  the TEB's StackBase
     * @param stackStart the address of the copy's first byte (the thread's rsp)
     * @param stack      the stack's bytes from rsp to StackBase
     * @param walkEnd    how StackWalk64's walk ended ({@code N return-address-zero}, {@code N error E})
     */
    record DumpedThread(String name, long stackLow, long stackHigh, Map<String, Long> registers, long stackStart,
            byte[] stack, List<OracleFrame> walk, String walkEnd) {
        private static final Map<String, Integer> DWARF = Map.ofEntries(Map.entry("rax", 0), Map.entry("rdx", 1),
                Map.entry("rcx", 2), Map.entry("rbx", 3), Map.entry("rsi", 4), Map.entry("rdi", 5),
                Map.entry("rbp", 6), Map.entry("rsp", 7), Map.entry("r8", 8), Map.entry("r9", 9),
                Map.entry("r10", 10), Map.entry("r11", 11), Map.entry("r12", 12), Map.entry("r13", 13),
                Map.entry("r14", 14), Map.entry("r15", 15), Map.entry("rip", X64Registers.RIP));

        /** The captured registers by their DWARF numbers, as a capture holds them. */
        Map<Integer, Long> registersByDwarfNumber() {
            Map<Integer, Long> r = new LinkedHashMap<>();
            registers.forEach((name, value) -> r.put(DWARF.get(name), value));
            return r;
        }
    }

    static PeStackDump read(Path file) throws IOException {
        List<Module> modules = new ArrayList<>();
        MemoryBuilder memory = new MemoryBuilder();
        Map<String, Long> symbols = new HashMap<>();
        Map<String, DumpedThread> threads = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).strip().equals("mixflame-pe-stack-dump 1")) {
            throw new IOException(file + " is no stack dump of version 1");
        }
        if (!lines.get(lines.size() - 1).strip().equals("end-dump")) {
            throw new IOException(file + " is cut short: no end-dump line");
        }
        ThreadBuilder thread = null;
        for (String raw : lines.subList(1, lines.size() - 1)) {
            String line = raw.strip();
            String[] f = line.split(" ", 2);
            String rest = f.length > 1 ? f[1] : "";
            switch (f[0]) {
                case "module" -> {
                    String[] m = rest.split(" ", 3);
                    modules.add(new Module(hex(m[0]), hex(m[1]), m[2], false));
                }
                case "not-its-file" -> {
                    Module last = modules.remove(modules.size() - 1);
                    if (last.base() != hex(rest)) {
                        throw new IOException("not-its-file " + rest + " does not follow its module line");
                    }
                    modules.add(new Module(last.base(), last.size(), last.windowsPath(), true));
                }
                case "memory" -> {
                    String[] m = rest.split(" ");
                    memory.add(hex(m[0]), bytes(m[1]));
                }
                case "symbol" -> {
                    String[] s = rest.split(" ");
                    symbols.put(s[0], hex(s[1]));
                }
                case "thread" -> thread = new ThreadBuilder(rest);
                case "stack-limits" -> {
                    String[] s = rest.split(" ");
                    thread.low = hex(s[0]);
                    thread.high = hex(s[1]);
                }
                case "reg" -> {
                    String[] s = rest.split(" ");
                    thread.registers.put(s[0], hex(s[1]));
                }
                case "stack" -> thread.stackLine(rest);
                case "frame" -> {
                    String[] s = rest.split(" ", 5);
                    thread.walk.add(new OracleFrame(hex(s[0]), hex(s[1]), hex(s[2]), hex(s[3]), s[4]));
                }
                case "walk-end" -> thread.walkEnd = rest;
                case "end-thread" -> {
                    threads.put(thread.name, thread.build());
                    thread = null;
                }
                default -> throw new IOException("unexpected dump line: " + line);
            }
        }
        return new PeStackDump(List.copyOf(modules), memory.build(), Map.copyOf(symbols), threads);
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s, 16);
    }

    private static byte[] bytes(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
        }
        return b;
    }

    /** Joins the dump's memory lines into runs of contiguous bytes. */
    private static final class MemoryBuilder {
        final Map<Long, byte[]> runs = new LinkedHashMap<>();
        long start = -1;
        final ByteArrayOutputStream run = new ByteArrayOutputStream();

        void add(long address, byte[] bytes) {
            if (start < 0 || address != start + run.size()) {
                flush();
                start = address;
            }
            run.writeBytes(bytes);
        }

        void flush() {
            if (start >= 0) {
                runs.put(start, run.toByteArray());
                run.reset();
                start = -1;
            }
        }

        Map<Long, byte[]> build() {
            flush();
            return Map.copyOf(runs);
        }
    }

    private static final class ThreadBuilder {
        final String name;
        long low;
        long high;
        final Map<String, Long> registers = new LinkedHashMap<>();
        long stackStart = -1;
        final ByteArrayOutputStream stack = new ByteArrayOutputStream();
        final List<OracleFrame> walk = new ArrayList<>();
        String walkEnd;

        ThreadBuilder(String name) {
            this.name = name;
        }

        void stackLine(String rest) throws IOException {
            String[] s = rest.split(" ");
            long at = hex(s[0]);
            if (stackStart < 0) {
                stackStart = at;
            } else if (at != stackStart + stack.size()) {
                throw new IOException(name + ": stack line at 0x" + Long.toHexString(at) + " is not contiguous");
            }
            for (int i = 0; i + 1 < s[1].length(); i += 2) {
                stack.write(Integer.parseInt(s[1], i, i + 2, 16));
            }
        }

        DumpedThread build() {
            return new DumpedThread(name, low, high, Map.copyOf(registers), stackStart, stack.toByteArray(),
                    List.copyOf(walk), walkEnd);
        }
    }
}
