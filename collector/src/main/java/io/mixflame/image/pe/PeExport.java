package io.mixflame.image.pe;

/**
 * A named export of a PE image that points into the image itself (forwarded exports are not among them).
 *
 * @param name the exported name
 * @param rva  the RVA it names
 */
public record PeExport(String name, long rva) {
}
