package io.expresso.stats;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.stat.correlation.Covariance;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * T² at BREC's size (q = 32 relabelings, d = 16): {@code t2} is {@link HotellingT2#of}, the entry
 * point an evaluation calls twice per pair; {@code naiveLibrary} is the straightforward Commons Math
 * route (Covariance → explicit pseudo-inverse matrix → quadratic form) kept for comparison; {@code
 * judge} is a whole RPC verdict (two T²). Each call takes the next of 64 pre-drawn Gaussian pairs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotellingT2Benchmark {

  private static final int Q = 32;
  private static final int D = 16;
  private static final int SETS = 64;

  private double[][][] x;
  private double[][][] y;
  private int cursor;
  private final Threshold threshold = Threshold.rpc();

  @Setup
  public void setUp() {
    SplittableRandom rnd = new SplittableRandom(42);
    x = new double[SETS][Q][D];
    y = new double[SETS][Q][D];
    for (int s = 0; s < SETS; s++) {
      for (int i = 0; i < Q; i++) {
        for (int j = 0; j < D; j++) {
          x[s][i][j] = rnd.nextDouble() + 0.01 * j;
          y[s][i][j] = rnd.nextDouble();
        }
      }
    }
  }

  private int next() {
    cursor = (cursor + 1) & (SETS - 1);
    return cursor;
  }

  @Benchmark
  public double t2() {
    int s = next();
    return HotellingT2.of(x[s], y[s], Convention.BREC);
  }

  @Benchmark
  public double naiveLibrary() {
    int s = next();
    double[][] d = new double[Q][D];
    double[] mean = new double[D];
    for (int i = 0; i < Q; i++) {
      for (int j = 0; j < D; j++) {
        d[i][j] = x[s][i][j] - y[s][i][j];
        mean[j] += d[i][j] / Q;
      }
    }
    RealMatrix sPlus = PseudoInverse.of(new Covariance(d).getCovarianceMatrix());
    return dot(mean, sPlus.operate(mean));
  }

  @Benchmark
  public boolean judge() {
    int s = next();
    int r = (s + 7) & (SETS - 1);
    return PairedComparison.judge(x[s], y[s], x[r], y[r], threshold, Convention.BREC).distinguished();
  }

  private static double dot(double[] a, double[] b) {
    double acc = 0;
    for (int i = 0; i < a.length; i++) {
      acc += a[i] * b[i];
    }
    return acc;
  }
}
