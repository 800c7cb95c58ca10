package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Decodes with protobuf-java's wire reader, independently of the writer. */
class ProtoWriterTest {

    /** Bodies whose lengths need one, two and three varint bytes, at each side of each boundary. */
    @ParameterizedTest
    @CsvSource({"0, 1", "127, 1", "128, 2", "16383, 2", "16384, 3", "100000, 3"})
    void aNestedMessageHasItsBodysLengthInTheShortestVarint(int bodyBytes, int lengthBytes) throws IOException {
        ProtoWriter out = new ProtoWriter(16);
        out.varint(1, 7);
        int message = out.begin(2);
        writeBody(out, bodyBytes);
        out.end(message);
        out.varint(3, 9);

        byte[] bytes = out.toByteArray();
        // Tag 1 and its value, tag 2, the length, the body, tag 3 and its value.
        assertThat(bytes).hasSize(2 + 1 + lengthBytes + bodyBytes + 2);
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        assertThat(in.readTag()).isEqualTo(tag(1, WireFormat.WIRETYPE_VARINT));
        assertThat(in.readInt64()).isEqualTo(7);
        assertThat(in.readTag()).isEqualTo(tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        assertBody(in.readBytes().toByteArray(), bodyBytes);
        assertThat(in.readTag()).isEqualTo(tag(3, WireFormat.WIRETYPE_VARINT));
        assertThat(in.readInt64()).isEqualTo(9);
        assertThat(in.isAtEnd()).isTrue();
    }

    @Test
    void messagesNestedInMessagesThatMoveKeepTheirOwnLengths() throws IOException {
        ProtoWriter out = new ProtoWriter(16);
        int outer = out.begin(1);
        int small = out.begin(2);
        out.varint(1, 300);
        out.end(small);
        int large = out.begin(3);
        out.string(1, "x".repeat(20_000));
        out.end(large);
        int packed = out.begin(4);
        for (long v : new long[] {0, 1, 128, Long.MAX_VALUE, -1}) {
            out.packedVarint(v);
        }
        out.end(packed);
        out.fixed64(5, 0x0102030405060708L);
        out.end(outer);

        CodedInputStream in = CodedInputStream.newInstance(out.toByteArray());
        assertThat(in.readTag()).isEqualTo(tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        CodedInputStream body = CodedInputStream.newInstance(in.readBytes().toByteArray());
        assertThat(in.isAtEnd()).isTrue();

        assertThat(body.readTag()).isEqualTo(tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        CodedInputStream smallBody = CodedInputStream.newInstance(body.readBytes().toByteArray());
        assertThat(smallBody.readTag()).isEqualTo(tag(1, WireFormat.WIRETYPE_VARINT));
        assertThat(smallBody.readInt64()).isEqualTo(300);
        assertThat(smallBody.isAtEnd()).isTrue();

        assertThat(body.readTag()).isEqualTo(tag(3, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        CodedInputStream largeBody = CodedInputStream.newInstance(body.readBytes().toByteArray());
        assertThat(largeBody.readTag()).isEqualTo(tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        assertThat(largeBody.readString()).isEqualTo("x".repeat(20_000));
        assertThat(largeBody.isAtEnd()).isTrue();

        assertThat(body.readTag()).isEqualTo(tag(4, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        CodedInputStream run = CodedInputStream.newInstance(body.readBytes().toByteArray());
        assertThat(run.readInt64()).isZero();
        assertThat(run.readInt64()).isEqualTo(1);
        assertThat(run.readInt64()).isEqualTo(128);
        assertThat(run.readInt64()).isEqualTo(Long.MAX_VALUE);
        assertThat(run.readInt64()).isEqualTo(-1);
        assertThat(run.isAtEnd()).isTrue();

        assertThat(body.readTag()).isEqualTo(tag(5, WireFormat.WIRETYPE_FIXED64));
        assertThat(body.readFixed64()).isEqualTo(0x0102030405060708L);
        assertThat(body.isAtEnd()).isTrue();
    }

    @Test
    void stringsAreUtf8() throws IOException {
        ProtoWriter out = new ProtoWriter(16).string(1, "grüße ✓");

        CodedInputStream in = CodedInputStream.newInstance(out.toByteArray());
        in.readTag();
        assertThat(in.readString()).isEqualTo("grüße ✓");
    }

    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    /** A body of exactly {@code bytes} bytes: raw varints 0..127, one byte each, so every byte is known. */
    private static void writeBody(ProtoWriter out, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.packedVarint(i % 128);
        }
    }

    private static void assertBody(byte[] body, int bytes) {
        byte[] expected = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            expected[i] = (byte) (i % 128);
        }
        assertThat(body).isEqualTo(expected);
    }
}
