package io.expresso.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The workplace's shared data (BREC excerpt, raw BREC files), read as {@code ../shared} relative to
 * the working directory (surefire runs in the repository root), never from an absolute path: a
 * missing file fails the test with the path it looked for, it does not skip.
 */
public final class SharedData {
  private SharedData() {}

  /** The shared data folder beside the repository. */
  public static final Path DIR = Path.of("../shared");

  /** {@code relative} under the shared folder, or an AssertionError naming where it was looked for. */
  public static Path require(String relative) {
    Path p = DIR.resolve(relative);
    if (!Files.exists(p)) {
      throw new AssertionError("shared test data not found: " + p.toAbsolutePath().normalize()
          + " (tests read ../shared relative to the repository root; put the workplace's shared folder"
          + " beside the checkout)");
    }
    return p;
  }
}
