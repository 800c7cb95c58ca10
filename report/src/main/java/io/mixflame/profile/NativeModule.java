package io.mixflame.profile;

import java.util.Objects;

/**
 * A native module (a shared library, a DLL, the main executable) that a profile's samples ran in, as outputs that
 * record libraries name it: pprof's Mappings.
 *
 * @param name    the name its frames carry as {@link Frame#module()}: the file name, or for a temporary copy the name
 *                that stays the same from run to run ({@code librocksdbjni.so})
 * @param path    the file's full path in the profiled process ({@code /tmp/librocksdbjni10576709545269562131.so})
 * @param buildId the image's build id in hexadecimal (ELF's GNU build id), empty when unknown
 */
public record NativeModule(String name, String path, String buildId) {

    public NativeModule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(buildId, "buildId");
    }
}
