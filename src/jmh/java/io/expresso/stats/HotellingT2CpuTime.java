package io.expresso.stats;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Thread CPU time (not wall time, which on a shared machine includes waiting for a core) per T²
 * at q = 32, d = 16, for {@link HotellingT2#of} and the naive Commons Math route of
 * {@link HotellingT2Benchmark}: 300 warm-up passes of 64 statistics each, then the mean and best of
 * 300 passes.
 *
 * <p>{@code java -cp target/benchmarks.jar io.expresso.stats.HotellingT2CpuTime}
 */
public final class HotellingT2CpuTime {

  private HotellingT2CpuTime() {}

  public static void main(String[] args) {
    HotellingT2Benchmark b = new HotellingT2Benchmark();
    b.setUp();
    measure("HotellingT2.of (one-pass covariance, SVD factors)", b::t2);
    measure("naive (Covariance, explicit pinv matrix)", b::naiveLibrary);
  }

  private static void measure(String name, java.util.function.DoubleSupplier op) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    long sum = 0;
    double sink = 0;
    for (int pass = 0; pass < 600; pass++) {
      long start = mx.getCurrentThreadCpuTime();
      for (int i = 0; i < 64; i++) {
        sink += op.getAsDouble();
      }
      long cpu = mx.getCurrentThreadCpuTime() - start;
      if (pass >= 300) {
        best = Math.min(best, cpu);
        sum += cpu;
      }
    }
    System.out.printf("%s: thread CPU per T² mean %.1f µs, best %.1f µs (checksum %.3f)%n",
        name, sum / 300.0 / 64 / 1e3, best / 64.0 / 1e3, sink);
  }
}
