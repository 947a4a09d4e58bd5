package io.expresso.wl;

import io.expresso.graph.Graph;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * The compute (thread CPU time, not wall time) that 2-FWL spends on the 100 pairs of
 * {@link RegularPairs}: on a shared machine JMH's wall-clock figures include time the thread
 * waited for a core, this does not. 200 warm-up passes, then the mean and best of 200 passes.
 *
 * <p>{@code java -cp target/benchmarks.jar io.expresso.wl.TwoFwlCpuTime}
 */
public final class TwoFwlCpuTime {

  private TwoFwlCpuTime() {}

  public static void main(String[] args) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    List<Graph[]> pairs = RegularPairs.generate();
    PairDistinguisher twoFwl = new TwoFwl();
    long best = Long.MAX_VALUE;
    long sum = 0;
    int distinguished = 0;
    for (int pass = 0; pass < 400; pass++) {
      long start = mx.getCurrentThreadCpuTime();
      distinguished = 0;
      for (Graph[] p : pairs) {
        distinguished += twoFwl.distinguishes(p[0], p[1]) ? 1 : 0;
      }
      long cpu = mx.getCurrentThreadCpuTime() - start;
      if (pass >= 200) {
        best = Math.min(best, cpu);
        sum += cpu;
      }
    }
    System.out.printf("2-FWL on %d regular pairs (%d distinguished): thread CPU per pass mean %.2f ms, best %.2f ms%n",
        pairs.size(), distinguished, sum / 200 / 1e6, best / 1e6);
  }
}
