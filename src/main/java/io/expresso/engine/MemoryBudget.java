package io.expresso.engine;

import ai.djl.Device;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The activation memory one device may use for one forward (and backward) pass. Batches larger
 * than the budget allows are split into micro-batches ({@link GraphModel#graphsPerTrainingPass},
 * {@link GraphModel#graphsPerInferencePass}); results do not depend on the split.
 *
 * @param bytes the budget, at least 1 MiB
 */
public record MemoryBudget(long bytes) {

  /** Share of a device's memory (the machine's or container's for the CPU) that its evaluations' budgets may use together. */
  private static final double MACHINE_SHARE = 0.5;

  public MemoryBudget {
    if (bytes < (1L << 20)) {
      throw new IllegalArgumentException("memory budget must be at least 1m, got " + bytes + " bytes");
    }
  }

  /**
   * Parses a size: a number of bytes with an optional suffix {@code k, m, g} (powers of 1024),
   * e.g. {@code 4g}, {@code 512m}.
   *
   * @throws IllegalArgumentException naming the text
   */
  public static MemoryBudget parse(String text) {
    String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
      unit = switch (s.charAt(s.length() - 1)) {
        case 'k' -> 1L << 10;
        case 'm' -> 1L << 20;
        default -> 1L << 30;
      };
      s = s.substring(0, s.length() - 1);
    }
    try {
      double v = Double.parseDouble(s);
      if (!(v > 0) || v * unit > Long.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return new MemoryBudget((long) (v * unit));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("memory budget '" + text + "' is not a size such as 4g, 512m or 1048576");
    }
  }

  /**
   * The default for {@code device}: half of the GPU's memory for a GPU; for the CPU, half of the
   * machine's memory (the container's limit where there is one, which the JVM reports). The
   * evaluations on one device share it as its {@link MemoryPool}.
   */
  public static MemoryBudget defaultFor(Device device) {
    long total;
    if (device.isGpu()) {
      total = ai.djl.util.cuda.CudaUtils.getGpuMemory(device).getMax();
    } else {
      total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    }
    return new MemoryBudget(Math.max(1L << 20, (long) (total * MACHINE_SHARE)));
  }

  /** Human-readable, e.g. {@code 1.0 GiB}. */
  public String text() {
    return bytes >= (1L << 30) ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
        : String.format(Locale.ROOT, "%d MiB", bytes >> 20);
  }
}
