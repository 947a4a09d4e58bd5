package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the entries of a BREC file in the format its name asks for: {@code .npy}, a NumPy array of
 * fixed-width byte strings as BREC's {@code np.save} writes it; {@code .g6}, graph6 text, one graph
 * per line. Both read back with {@code brec:}. The file is written beside its final name and moved
 * into place, so an interrupted build never leaves a truncated file that looks finished.
 */
public final class BrecFileWriter {

  private BrecFileWriter() {}

  /** Whether {@code file}'s name ends in an extension {@link #write} knows. */
  public static boolean knows(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".npy") || name.endsWith(".g6");
  }

  /** Writes {@code entries} to {@code file} (.npy or .g6), replacing it if it exists. */
  public static void write(Path file, List<Graph> entries) throws IOException {
    String name = file.getFileName().toString();
    if (!knows(file)) {
      throw new IllegalArgumentException(name + ": unknown output format; the name must end in .npy or .g6");
    }
    Path dir = file.toAbsolutePath().getParent();
    // Not createTempFile: its owner-only mode would stick to the finished file.
    Path partial = dir.resolve("." + name + "." + ProcessHandle.current().pid() + "." + System.nanoTime() + ".partial");
    try {
      if (name.endsWith(".g6")) {
        Graph6.writeFile(partial, entries);
      } else {
        List<String> strings = new ArrayList<>(entries.size());
        for (Graph g : entries) {
          strings.add(Graph6.encode(g));
        }
        NpyStringWriter.writeBytes(partial, strings);
      }
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
  }
}
