package io.mixflame.examples.jvmcode;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/** Checksums, digests and Base64 over the same 16 KiB: the JVM's intrinsic stubs do nearly all the work. */
final class DigestShape implements Shape {
    private final byte[] data = new byte[16 * 1024];
    private final byte[] encoded = new byte[Base64.getEncoder().encode(new byte[16 * 1024]).length];
    private final MessageDigest[] digests;

    DigestShape() {
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        try {
            digests = new MessageDigest[] {MessageDigest.getInstance("MD5"), MessageDigest.getInstance("SHA-1"),
                    MessageDigest.getInstance("SHA-256")};
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public long round() {
        CRC32 crc = new CRC32();
        crc.update(data, 0, data.length);
        CRC32C crcC = new CRC32C();
        crcC.update(data, 0, data.length);
        Adler32 adler = new Adler32();
        adler.update(data, 0, data.length);
        long n = crc.getValue() + crcC.getValue() + adler.getValue();
        for (MessageDigest d : digests) {
            d.update(data);
            n += d.digest()[0];
        }
        n += Base64.getEncoder().encode(data, encoded);
        return n;
    }
}
