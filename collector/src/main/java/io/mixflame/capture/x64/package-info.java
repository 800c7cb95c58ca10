/** What the captures and unwinders share of the x86-64 architecture: its registers' numbers. */
package io.mixflame.capture.x64;
