package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.FakeProcessMemory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Naming generated stubs and finding their entries: from a StubCodeDesc list laid out in fake memory, from the
 * entry points a JVM's tables export, and vtable from itable stubs from VtableStubs' hash table.
 */
class GeneratedStubsTest {
    private static final long DATA = 0x7f10_0000_0000L;
    private static final long LIST_VARIABLE = 0x7f18_0000_0100L;
    private static final long TABLE_VARIABLE = 0x7f18_0000_1000L;
    private static final long LIBJVM = 0x7f18_1000_0000L;
    private static final long VERSION = 0x7f19_0000_0000L;
    private static final long CODE = 0x7f20_0000_0000L;
    private static final long CODE_END = 0x7f20_0100_0000L;
    /** A blob of several stubs, one of one stub, and a blob of vtable stubs. */
    private static final CodeBlobInfo ROUTINES = stub(CODE + 0x1000, CODE + 0x2000, "StubRoutines (2)");
    private static final CodeBlobInfo ADAPTER = stub(CODE + 0x3000, CODE + 0x3100, "I2C/C2I adapters");
    private static final CodeBlobInfo CHUNKS = stub(CODE + 0x4000, CODE + 0x4400, "vtable chunks");

    private final FakeProcessMemory memory = new FakeProcessMemory();
    private long next = DATA;
    private long now;

    private static CodeBlobInfo stub(long start, long end, String name) {
        return new CodeBlobInfo(start, end, BlobKind.STUB, name, start + 0x80, end, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                start + 0x80);
    }

    private static CodeBlobInfo blobAt(long address) {
        for (CodeBlobInfo b : new CodeBlobInfo[] {ROUTINES, ADAPTER, CHUNKS}) {
            if (b.contains(address)) {
                return b;
            }
        }
        return null;
    }

    private long string(String s) {
        long at = next;
        memory.writeCString(at, s);
        next += (s.length() + 16) & ~15;
        return at;
    }

    /** A descriptor as HotSpot lays one out: next, group, name, begin, end, then an int. */
    private long descriptor(long nextDescriptor, String name, long begin, long end) {
        long at = next;
        next += 48;
        memory.writeLong(at, nextDescriptor).writeLong(at + 8, string("StubRoutines")).writeLong(at + 16, string(name))
                .writeLong(at + 24, begin).writeLong(at + 32, end).writeInt(at + 40, 7);
        return at;
    }

    private GeneratedStubs stubs(VmStructs structs, Map<String, Long> symbols) {
        return new GeneratedStubs(new VmReader(memory), structs, s -> symbols.getOrDefault(s, 0L),
                GeneratedStubsTest::blobAt, pc -> pc >= CODE && pc < CODE_END, () -> now);
    }

    private void writeStubList() {
        long crc = descriptor(0, "updateBytesCRC32", CODE + 0x1400, CODE + 0x1500);
        long copy = descriptor(crc, "jint_disjoint_arraycopy", CODE + 0x1100, CODE + 0x1300);
        memory.writeLong(LIST_VARIABLE, copy);
    }

    @Test
    void aStubIsNamedFromTheListAndEntersAtItsBegin() throws Exception {
        writeStubList();
        GeneratedStubs stubs = stubs(emptyStructs(), Map.of(GeneratedStubs.STUB_LIST_SYMBOL, LIST_VARIABLE));

        assertThat(stubs.name(ROUTINES, CODE + 0x1100)).isEqualTo("jint_disjoint_arraycopy");
        assertThat(stubs.name(ROUTINES, CODE + 0x12ff)).isEqualTo("jint_disjoint_arraycopy");
        assertThat(stubs.entry(ROUTINES, CODE + 0x1234)).isEqualTo(CODE + 0x1100);
        assertThat(stubs.name(ROUTINES, CODE + 0x1480)).isEqualTo("updateBytesCRC32");
        assertThat(stubs.entry(ROUTINES, CODE + 0x1480)).isEqualTo(CODE + 0x1400);
    }

    @Test
    void betweenKnownStubsTheBlobNamesTheFrameAndNoEntryIsGuessed() throws Exception {
        writeStubList();
        GeneratedStubs stubs = stubs(emptyStructs(), Map.of(GeneratedStubs.STUB_LIST_SYMBOL, LIST_VARIABLE));

        assertThat(stubs.name(ROUTINES, CODE + 0x1350)).isEqualTo("StubRoutines (2)");
        assertThat(stubs.entry(ROUTINES, CODE + 0x1350)).isZero();
        assertThat(stubs.name(ADAPTER, CODE + 0x3090)).isEqualTo("I2C/C2I adapters");
        assertThat(stubs.entry(ADAPTER, CODE + 0x3090)).isEqualTo(ADAPTER.codeBegin());
    }

    @Test
    void theListsLayoutIsFoundFromItsDescriptors() throws Exception {
        writeStubList();
        StubCodeList list = new StubCodeList(new VmReader(memory), pc -> pc >= CODE && pc < CODE_END);

        assertThat(list.layoutOf(memory.readLong(LIST_VARIABLE)))
                .isEqualTo(new StubCodeList.Layout(0, 8, 16, 24, 32));
    }

    @Test
    void aListWhoseDescriptorsFitNoLayoutNamesNothing() throws Exception {
        long bad = next;
        next += 48;
        memory.writeLong(bad, 0).writeLong(bad + 8, CODE + 0x1100).writeLong(bad + 16, CODE + 0x1000)
                .writeLong(bad + 24, 0x1234).writeLong(bad + 32, 0x5678);
        memory.writeLong(LIST_VARIABLE, bad);
        GeneratedStubs stubs = stubs(emptyStructs(), Map.of(GeneratedStubs.STUB_LIST_SYMBOL, LIST_VARIABLE));

        assertThat(stubs.name(ROUTINES, CODE + 0x1100)).isEqualTo("StubRoutines (2)");
    }

    @Test
    void stubsGeneratedLaterAreFoundOnceTheListIsReadAgain() throws Exception {
        writeStubList();
        GeneratedStubs stubs = stubs(emptyStructs(), Map.of(GeneratedStubs.STUB_LIST_SYMBOL, LIST_VARIABLE));
        assertThat(stubs.name(ROUTINES, CODE + 0x1800)).isEqualTo("StubRoutines (2)");

        memory.writeLong(LIST_VARIABLE, descriptor(memory.readLong(LIST_VARIABLE), "md5_implCompress",
                CODE + 0x1800, CODE + 0x1900));
        assertThat(stubs.name(ROUTINES, CODE + 0x1800)).isEqualTo("StubRoutines (2)");
        now += 2_000_000_000L;

        assertThat(stubs.name(ROUTINES, CODE + 0x1800)).isEqualTo("md5_implCompress");
    }

    @Test
    void withoutTheListStubsAreNamedFromTheExportedEntryPoints() throws Exception {
        long arraycopy = 0x7f18_0000_2000L;
        long crc = 0x7f18_0000_2008L;
        long returnAddress = 0x7f18_0000_2010L;
        long table = 0x7f18_0000_2018L;
        memory.writeLong(arraycopy, CODE + 0x1100).writeLong(crc, CODE + 0x1400)
                .writeLong(returnAddress, CODE + 0x1200).writeLong(table, DATA + 0x10);
        SyntheticVmStructs tables = new SyntheticVmStructs()
                .staticField("StubRoutines", "_jint_disjoint_arraycopy", "address", arraycopy)
                .staticField("StubRoutines", "_updateBytesCRC32", "address", crc)
                .staticField("StubRoutines", "_call_stub_return_address", "address", returnAddress)
                .staticField("StubRoutines", "_crc_table_adr", "address", table);
        GeneratedStubs stubs = stubs(VmStructs.read(new VmReader(memory), tables.layOut(memory, LIBJVM)), Map.of());

        assertThat(stubs.name(ROUTINES, CODE + 0x1100)).isEqualTo("jint_disjoint_arraycopy");
        // The return address inside the call stub does not cut the stub before it.
        assertThat(stubs.name(ROUTINES, CODE + 0x13ff)).isEqualTo("jint_disjoint_arraycopy");
        assertThat(stubs.entry(ROUTINES, CODE + 0x1250)).isEqualTo(CODE + 0x1100);
        // The last entry of a blob reaches to the blob's end.
        assertThat(stubs.name(ROUTINES, CODE + 0x1fff)).isEqualTo("updateBytesCRC32");
        assertThat(stubs.name(ROUTINES, CODE + 0x1080)).isEqualTo("StubRoutines (2)");
    }

    @Test
    void vtableAndItableStubsAreToldApartByTheirHeaders() throws Exception {
        long itable = CHUNKS.codeBegin();
        long vtable = itable + 0x40;
        long vtable2 = vtable + 0x40;
        memory.map(TABLE_VARIABLE, 8L * VtableStubTable.SLOTS);
        memory.writeLong(itable, 0).writeByte(itable + VtableStubTable.KIND_OFFSET, 0);
        memory.writeLong(vtable, vtable2).writeByte(vtable + VtableStubTable.KIND_OFFSET, 1);
        memory.writeLong(vtable2, 0).writeByte(vtable2 + VtableStubTable.KIND_OFFSET, 1);
        memory.writeLong(TABLE_VARIABLE + 8 * 3, itable).writeLong(TABLE_VARIABLE + 8 * 200, vtable);
        GeneratedStubs stubs = stubs(emptyStructs(), Map.of(GeneratedStubs.VTABLE_TABLE_SYMBOL, TABLE_VARIABLE));

        assertThat(stubs.name(CHUNKS, itable + 16)).isEqualTo("itable stub");
        assertThat(stubs.name(CHUNKS, itable + 0x3f)).isEqualTo("itable stub");
        assertThat(stubs.entry(CHUNKS, itable + 0x30)).isEqualTo(itable + 16);
        assertThat(stubs.name(CHUNKS, vtable + 0x20)).isEqualTo("vtable stub");
        assertThat(stubs.name(CHUNKS, vtable2 + 0x20)).isEqualTo("vtable stub");
        assertThat(stubs.entry(CHUNKS, vtable2 + 0x20)).isEqualTo(vtable2 + 16);
        // Past the last stub by more than a stub's length: not known, and called a vtable stub.
        assertThat(stubs.entry(CHUNKS, vtable2 + 0x100)).isZero();
        assertThat(stubs.name(CHUNKS, vtable2 + 0x100)).isEqualTo("vtable stub");
    }

    private VmStructs emptyStructs() throws Exception {
        SyntheticVmStructs tables = new SyntheticVmStructs();
        OtherLayoutEntries.addTo(tables, memory, VERSION, 17);
        return VmStructs.read(new VmReader(memory), tables.layOut(memory, LIBJVM));
    }
}
