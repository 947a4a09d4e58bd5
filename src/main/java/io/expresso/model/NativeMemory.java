package io.expresso.model;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * Gives memory freed by native tensors back to the operating system. PyTorch's CPU tensors come
 * from glibc's malloc, which keeps freed blocks of the last pair's sizes in its arenas; pairs of
 * other sizes then take new memory, and a long run's resident size climbs from pair to pair
 * (2.4 to 5.5 GiB over BREC's CFI pairs under a 2 GiB budget) although every pair fits. Trimming
 * once per model, when it closes, keeps the resident size at what one pair needs; it costs
 * milliseconds, where forcing every tensor through mmap instead made passes twice as slow.
 */
public final class NativeMemory {

  private interface C extends Library {
    int malloc_trim(long pad);
  }

  private static final C LIBC = load();

  private NativeMemory() {}

  private static C load() {
    if (!Platform.isLinux()) {
      return null;
    }
    try {
      C c = Native.load("c", C.class);
      c.malloc_trim(0);
      return c;
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return null; // not glibc (e.g. musl): nothing to trim with
    }
  }

  /** Returns free heap memory to the system where the C library can (glibc); a no-op elsewhere. */
  public static void release() {
    if (LIBC != null) {
      LIBC.malloc_trim(0);
    }
  }
}
