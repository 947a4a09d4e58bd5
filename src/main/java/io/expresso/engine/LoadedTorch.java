package io.expresso.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PyTorch native library this process actually loaded, as the dynamic loader mapped it (Linux
 * {@code /proc/self/maps}): its version and flavour ({@code cpu}, {@code cu130}, …), where it lies,
 * and DJL's JNI beside it. DJL reports the version it was told (PYTORCH_VERSION or its build's),
 * which on a GPU host running a locally built JNI is not what runs.
 *
 * @param version e.g. {@code 2.11.0}; {@code unknown} if nothing beside the library says
 * @param flavor {@code cpu} or {@code cuXYZ}; {@code cuda} if only the mapped libraries say so
 * @param libtorch the mapped {@code libtorch_cpu.so} (or {@code libtorch.so})
 * @param jni the mapped {@code libdjl_torch.so}, if any
 */
public record LoadedTorch(String version, String flavor, Path libtorch, Optional<Path> jni) {

  private static final Path MAPS = Path.of("/proc/self/maps");
  /** DJL's cache folder names: {@code 2.7.1-cpu-linux-x86_64}, {@code 2.5.1-cu124-precxx11-linux-x86_64}. */
  private static final Pattern DJL_FOLDER = Pattern.compile("(\\d+\\.\\d+\\.\\d+)(?:-\\d{8})?-(cpu|cu\\d+)(?:-.*)?");
  /** {@code __version__ = '2.11.0+cu130'} in a pip wheel's torch/version.py. */
  private static final Pattern PIP_VERSION = Pattern.compile("(?m)^__version__\\s*=\\s*['\"]([0-9][^'\"+]*)(?:\\+([^'\"]+))?['\"]");
  private static final Pattern PIP_CUDA = Pattern.compile("(?m)^cuda\\s*(?::[^=]*)?=\\s*['\"](\\d+)\\.(\\d+)['\"]");

  private static volatile LoadedTorch known;

  /** {@code 2.11.0+cu130}: the token provenance records. */
  public String text() {
    return version + "+" + flavor;
  }

  /** The library once some call found it mapped; empty before (never scans). */
  public static Optional<LoadedTorch> known() {
    return Optional.ofNullable(known);
  }

  /** Looks at the libraries mapped now (cached once found); empty if PyTorch is not loaded. */
  public static Optional<LoadedTorch> find() {
    LoadedTorch k = known;
    if (k != null) {
      return Optional.of(k);
    }
    try {
      Optional<LoadedTorch> found = fromMaps(Files.readAllLines(MAPS));
      found.ifPresent(t -> known = t);
      return found;
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // not Linux: nothing to read the loaded libraries from
    }
  }

  /** Reads {@code /proc/PID/maps} lines. */
  static Optional<LoadedTorch> fromMaps(List<String> maps) {
    Path torch = null;
    Path jni = null;
    boolean cudaMapped = false;
    for (String line : maps) {
      int slash = line.indexOf('/');
      if (slash < 0) {
        continue;
      }
      Path p = Path.of(line.substring(slash).strip());
      String name = p.getFileName().toString();
      if (name.equals("libtorch_cpu.so") || (name.equals("libtorch.so") && torch == null)) {
        torch = p;
      } else if (name.endsWith("libdjl_torch.so")) {
        jni = p;
      } else if (name.startsWith("libtorch_cuda") || name.startsWith("libc10_cuda")) {
        cudaMapped = true;
      }
    }
    if (torch == null) {
      return Optional.empty();
    }
    return Optional.of(describe(torch, Optional.ofNullable(jni), cudaMapped));
  }

  private static LoadedTorch describe(Path libtorch, Optional<Path> jni, boolean cudaMapped) {
    Path dir = libtorch.getParent();
    Matcher djl = DJL_FOLDER.matcher(dir.getFileName().toString());
    if (djl.matches()) {
      return new LoadedTorch(djl.group(1), djl.group(2), libtorch, jni);
    }
    Path versionPy = dir.getParent() == null ? null : dir.getParent().resolve("version.py");
    if (versionPy != null && Files.isRegularFile(versionPy)) {
      try {
        String py = Files.readString(versionPy);
        Matcher v = PIP_VERSION.matcher(py);
        if (v.find()) {
          Matcher cuda = PIP_CUDA.matcher(py);
          String flavor = v.group(2) != null && v.group(2).matches("cpu|cu\\d+") ? v.group(2)
              : cuda.find() ? "cu" + cuda.group(1) + cuda.group(2) : "cpu";
          return new LoadedTorch(v.group(1), flavor, libtorch, jni);
        }
      } catch (IOException e) {
        // fall through: the version stays unknown
      }
    }
    return new LoadedTorch("unknown", cudaMapped ? "cuda" : "cpu", libtorch, jni);
  }
}
