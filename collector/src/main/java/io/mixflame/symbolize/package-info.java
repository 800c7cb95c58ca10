/**
 * The symbolize stage: names for the frames a walk found — native symbols demangled (Itanium and Microsoft C++), Java
 * methods with inlining expanded, kernel symbols. The samplers' {@code ProfileFrameNamer} names each distinct frame
 * once and hands the profile its frames.
 */
package io.mixflame.symbolize;
