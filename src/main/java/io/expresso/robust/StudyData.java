package io.expresso.robust;

import io.expresso.count.CountingSplit;
import io.expresso.count.RobustnessData;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The study's datasets by name ({@code sbm}, {@code er-0.3}, {@code er-0.8}) at a scale. They are
 * regenerated from their seed on every worker (no data travels through Kafka) and memoised per
 * process, since a worker runs many tasks on the same data.
 */
public final class StudyData {

  /** Seed of every dataset of the study; a job names the dataset, not the seed. */
  public static final long DATA_SEED = 20240601L;

  private static final Map<String, CountingSplit> CACHE = new ConcurrentHashMap<>();

  private StudyData() {}

  /** The dataset names a job may give. */
  public static final List<String> NAMES = List.of("sbm", "er-0.3", "er-0.8");

  /** Rejects an unknown dataset name without generating anything. */
  public static void check(String name) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown dataset '" + name + "' (expected sbm, er-0.3 or er-0.8)");
    }
  }

  public static CountingSplit get(String name, Scale scale) {
    return get(name, scale.datasetSize());
  }

  /** Dataset {@code name} with {@code graphs} graphs (before the split); memoised by name and size. */
  public static CountingSplit get(String name, int graphs) {
    if (graphs < 10) {
      throw new IllegalArgumentException("a dataset needs at least 10 graphs for its 30/20/50 split, got " + graphs);
    }
    return CACHE.computeIfAbsent(name + "@" + graphs, k -> switch (name) {
      case "sbm" -> RobustnessData.sbm(graphs, DATA_SEED);
      case "er-0.3" -> RobustnessData.erdosRenyi(graphs, RobustnessData.ER_IN, DATA_SEED);
      case "er-0.8" -> RobustnessData.erdosRenyi(graphs, RobustnessData.ER_OOD, DATA_SEED);
      default -> throw new IllegalArgumentException("unknown dataset '" + name
          + "' (expected sbm, er-0.3 or er-0.8)");
    });
  }

  /** Mean edge count over all graphs of the dataset: the reference of the attack budgets. */
  public static double meanEdges(CountingSplit s) {
    int n1 = s.train().graphs().size();
    int n2 = s.validation().graphs().size();
    int n3 = s.test().graphs().size();
    return (s.train().meanEdges() * n1 + s.validation().meanEdges() * n2 + s.test().meanEdges() * n3)
        / (n1 + n2 + n3);
  }
}
