/**
 * HotSpot's frame rules on x86-64, behind {@link io.mixflame.unwind.hotspot.HotSpotFrameRules}: interpreter frame
 * slots, and the few instructions HotSpot emits where a compiled frame or a stub is built or taken down, decoded to
 * tell how much of the frame is on the stack at any pc; {@code X64FrameRulesFactory} offers them as a service.
 */
package io.mixflame.unwind.hotspot.x64;
