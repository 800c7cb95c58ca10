package io.mixflame.hotspot;

import static io.mixflame.hotspot.SyntheticCodeCache.HEAP_BLOCK;
import static io.mixflame.hotspot.SyntheticCodeCache.SEGMENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.LoadedModule;
import io.mixflame.testsupport.FakeProcessMemory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Finding the code blob of a pc in a code cache laid out in fake memory, read through the layout the real
 * {@link VmStructs} and {@link HotSpotLayout} make of synthetic JVM tables.
 */
class CodeCacheIndexTest {
    private static final long DATA = 0x7f10_0000_0000L;
    private static final long LIBJVM = 0x7f18_0000_0000L;
    private static final long VERSION = 0x7f19_0000_0000L;
    private static final long NMETHOD_HEAP = 0x7f20_0000_0000L;
    private static final long STUB_HEAP = 0x7f20_0010_0000L;
    private static final long METHOD_1 = 0x8000_1000L;
    private static final long METHOD_2 = 0x8000_2000L;
    private static final long REVALIDATION_NANOS = 1_000_000_000L;
    /** Bytes of a block of {@code segments} segments available to its blob. */
    private static final int SEGMENTS_4 = 4 * SEGMENT - HEAP_BLOCK;

    private final FakeProcessMemory memory = new FakeProcessMemory();
    private final SyntheticCodeCache cache = new SyntheticCodeCache(memory, DATA);
    private SyntheticCodeCache.Heap nmethods;
    private long now;
    private CodeCacheIndex index;

    /** An nmethod that does not fill its block, a small one, a freed block, one of more than 254 segments. */
    private long a;
    private int aSize;
    private long b;
    private long freed;
    private long big;
    private int bigSize;
    private long stub;

    @BeforeEach
    void setUp() throws Exception {
        nmethods = cache.addHeap(NMETHOD_HEAP, 310, 1024);
        SyntheticCodeCache.Heap stubs = cache.addHeap(STUB_HEAP, 64, 64);
        a = nmethods.allocate(4);
        aSize = SEGMENTS_4 - 32;
        cache.writeNmethod(a, aSize, METHOD_1, 4);
        b = nmethods.allocate(2);
        cache.writeNmethod(b, 2 * SEGMENT - HEAP_BLOCK, METHOD_2, 1);
        freed = nmethods.allocate(3);
        cache.writeNmethod(freed, 3 * SEGMENT - HEAP_BLOCK, METHOD_2, 1);
        nmethods.free(freed);
        big = nmethods.allocate(300);
        bigSize = 300 * SEGMENT - HEAP_BLOCK;
        cache.writeNmethod(big, bigSize, METHOD_1, 3);
        stub = stubs.allocate(2);
        cache.writeStub(stub, 2 * SEGMENT - HEAP_BLOCK, "StubRoutines (1)");

        SyntheticVmStructs tables = new SyntheticVmStructs();
        cache.describeTo(tables);
        OtherLayoutEntries.addTo(tables, memory, VERSION, 21);
        LoadedModule libjvm = tables.layOut(memory, LIBJVM);
        VmReader reader = new VmReader(memory);
        HotSpotLayout layout = new HotSpotLayout(VmStructs.read(reader, libjvm), reader);
        index = new CodeCacheIndex(layout, reader, () -> now, null);
    }

    @Test
    void anNmethodIsFoundFromItsFirstToItsLastByteWithItsHeader() {
        for (long pc : new long[] {a, a + 1, a + 0x80, a + aSize - 1}) {
            assertThat(index.find(pc)).as("pc a + 0x%x", pc - a).isNotNull();
        }
        CodeBlobInfo blob = index.find(a + 0x100);

        assertThat(blob.start()).isEqualTo(a);
        assertThat(blob.end()).isEqualTo(a + aSize);
        assertThat(blob.kind()).isEqualTo(BlobKind.NMETHOD);
        assertThat(blob.name()).isEqualTo("nmethod");
        assertThat(blob.codeBegin()).isEqualTo(a + 0x80);
        assertThat(blob.codeEnd()).isEqualTo(a + aSize - 0x80);
        assertThat(blob.frameSizeWords()).isEqualTo(4);
        assertThat(blob.frameCompleteOffset()).isEqualTo(8);
        assertThat(blob.method()).isEqualTo(METHOD_1);
        assertThat(blob.compLevel()).isEqualTo(4);
        assertThat(blob.origPcOffset()).isEqualTo(16);
        assertThat(blob.deoptHandler()).isEqualTo(a + aSize - 0x20);
        assertThat(blob.deoptMhHandler()).isEqualTo(a + aSize - 0x10);
        assertThat(blob.pcsBegin()).isEqualTo(a + aSize - 0x40);
        assertThat(blob.pcsEnd()).isEqualTo(a + aSize - 0x30);
        assertThat(blob.scopesData()).isEqualTo(a + aSize - 0x60);
        assertThat(blob.metadata()).isEqualTo(a + aSize - 0x50);
    }

    @Test
    void neitherTheBlockHeaderNorTheSlackAfterTheBlobIsInIt() {
        assertThat(index.find(a - HEAP_BLOCK)).isNull();
        assertThat(index.find(a - 1)).isNull();
        assertThat(index.find(a + aSize)).isNull();
        assertThat(index.find(b - 1)).isNull();
        assertThat(index.find(b - HEAP_BLOCK)).isNull();
        assertThat(index.find(b).method()).isEqualTo(METHOD_2);
    }

    @Test
    void aBlobOfManySegmentsIsFoundThroughSeveralHops() {
        assertThat(index.find(big + bigSize - 1).start()).isEqualTo(big);
        assertThat(index.find(big + 255L * SEGMENT).start()).isEqualTo(big);
        assertThat(index.find(big + 254L * SEGMENT - HEAP_BLOCK).start()).isEqualTo(big);
    }

    @Test
    void aStubInAnotherHeapIsFound() {
        CodeBlobInfo blob = index.find(stub + 0x90);

        assertThat(blob.kind()).isEqualTo(BlobKind.STUB);
        assertThat(blob.name()).isEqualTo("StubRoutines (1)");
        assertThat(blob.method()).isZero();
        assertThat(blob.isJava()).isFalse();
    }

    @Test
    void freeBlocksAndUnusedSegmentsHoldNoBlob() {
        assertThat(index.find(freed)).isNull();
        assertThat(index.find(freed + 0x100)).isNull();
        long afterLastBlock = big + bigSize + 1;
        assertThat(index.find(afterLastBlock)).isNull();
        assertThat(index.find(STUB_HEAP + 10L * SEGMENT)).isNull();
    }

    @Test
    void pcsOutsideTheCodeHeapsHoldNoBlob() {
        assertThat(index.inCodeCache(DATA)).isFalse();
        assertThat(index.find(DATA)).isNull();
        assertThat(index.find(NMETHOD_HEAP - 1)).isNull();
        assertThat(index.find(STUB_HEAP + 64L * SEGMENT)).isNull();
        assertThat(index.find(0)).isNull();
        // Reserved for the nmethod heap but not committed.
        assertThat(index.inCodeCache(NMETHOD_HEAP + 500L * SEGMENT)).isTrue();
        assertThat(index.find(NMETHOD_HEAP + 500L * SEGMENT)).isNull();
    }

    @Test
    void aBlobWhereTheHeapHasGrownIsFoundAfterTheHeapsAreReadAgain() {
        long grown = nmethods.allocate(4);
        cache.writeNmethod(grown, SEGMENTS_4, METHOD_2, 4);
        long pc = grown + 3L * SEGMENT;
        assertThat(index.find(pc)).isNull();

        nmethods.commit(400);

        assertThat(index.find(pc).start()).isEqualTo(grown);
    }

    @Test
    void aCachedBlobIsTrustedUntilTheRevalidationPeriodEnds() {
        long pc = b + 0x90;
        assertThat(index.find(pc).method()).isEqualTo(METHOD_2);
        nmethods.free(b);
        cache.writeStub(b, 0x70, "I2C/C2I adapters");
        nmethods.reuse(b);

        now += REVALIDATION_NANOS - 1;
        assertThat(index.find(pc).kind()).isEqualTo(BlobKind.NMETHOD);

        now += 1;
        assertThat(index.find(pc)).isNull();
        assertThat(index.find(b + 0x10).name()).isEqualTo("I2C/C2I adapters");
    }

    @Test
    void aFreedBlobIsForgottenAtRevalidation() {
        long pc = a + 0x90;
        assertThat(index.find(pc)).isNotNull();
        nmethods.free(a);

        now += REVALIDATION_NANOS;

        assertThat(index.find(pc)).isNull();
        assertThat(index.find(a + 0x20)).isNull();
    }

    @Test
    void aNewPcInABlobAlreadyKnownIsRevalidatedToo() {
        assertThat(index.find(a + 0x90)).isNotNull();
        nmethods.free(a);
        cache.writeNmethod(a, 0x100, METHOD_2, 1);
        nmethods.reuse(a);

        now += REVALIDATION_NANOS;

        CodeBlobInfo blob = index.find(a + 0xa0);
        assertThat(blob.method()).isEqualTo(METHOD_2);
        assertThat(blob.end()).isEqualTo(a + 0x100);
    }

    @Test
    void aBlockReusedByAnotherNmethodOfTheSameSizeIsReadAgain() {
        long pc = a + 0x90;
        assertThat(index.find(pc).method()).isEqualTo(METHOD_1);
        nmethods.free(a);
        cache.writeNmethod(a, aSize, METHOD_2, 1);
        nmethods.reuse(a);

        now += REVALIDATION_NANOS;

        assertThat(index.find(pc).method()).isEqualTo(METHOD_2);
    }

    @Test
    void aDamagedSegmentMapOrHeaderCostsOnlyTheBlobsItDescribes() {
        // A hop back past the heap's start.
        nmethods.setSegmapByte(1, 5);
        // A blob of size 0.
        memory.writeInt(b + SyntheticCodeCache.SIZE, 0);
        // A blob whose name cannot be read.
        memory.writeLong(stub + SyntheticCodeCache.NAME, 0x10);

        assertThat(index.find(a + SEGMENT)).isNull();
        assertThat(index.find(b + 0x10)).isNull();
        assertThat(index.find(stub + 0x10)).isNull();
        assertThat(index.find(a + 0x10).start()).isEqualTo(a);
        assertThat(index.find(big + 0x10).start()).isEqualTo(big);
    }
}
