package io.expresso.engine;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * This process's environment as native libraries see it (the C library's {@code environ}).
 * Java's {@link System#getenv} is a copy taken at JVM start and cannot be changed; CUDA's libraries
 * read variables such as {@code NVIDIA_TF32_OVERRIDE} with {@code getenv} when they initialise, so
 * setting one for them goes through libc's {@code setenv}.
 */
public final class NativeEnvironment {

  private interface C extends Library {
    String getenv(String name);

    int setenv(String name, String value, int overwrite);

    int unsetenv(String name);
  }

  private static final C LIBC = load();

  private NativeEnvironment() {}

  private static C load() {
    if (!Platform.isLinux() && !Platform.isMac()) {
      return null;
    }
    try {
      return Native.load("c", C.class);
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return null;
    }
  }

  /** The variable's value as native code sees it now; null if unset. */
  public static String get(String name) {
    return LIBC == null ? System.getenv(name) : LIBC.getenv(name);
  }

  /**
   * Sets the variable for native code in this process.
   *
   * @throws IllegalStateException if the C library cannot be reached or refuses
   */
  static void set(String name, String value) {
    if (LIBC == null || LIBC.setenv(name, value, 1) != 0 || !value.equals(LIBC.getenv(name))) {
      throw new IllegalStateException("cannot set " + name + "=" + value + " in this process's native environment"
          + " (no C library reachable through JNA); export it before starting Java");
    }
  }

  /**
   * Removes the variable for native code in this process.
   *
   * @throws IllegalStateException if the C library cannot be reached or refuses
   */
  static void unset(String name) {
    if (LIBC == null || LIBC.unsetenv(name) != 0 || LIBC.getenv(name) != null) {
      throw new IllegalStateException("cannot unset " + name + " in this process's native environment"
          + " (no C library reachable through JNA); unset it before starting Java");
    }
  }
}
