package io.expresso.runtime;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Relabelings;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Suite;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Builds the task messages publishers send: the header every task carries, pair tasks for a
 * suite, synthetic load. Task ids are deterministic ({@code <experiment>/<method>/<pair>/s<seed>},
 * {@code <experiment>/synthetic/<i>}), so publishing an experiment again yields the same ids.
 */
public final class TaskMessages {

  private TaskMessages() {}

  /**
   * The header of a task published now: its ids, the publish time and who publishes (this host
   * and code revision), which the worker copies into the result's provenance.
   */
  public static TaskHeader header(String experiment, String taskId, long publishedAtMs) {
    return TaskHeader.newBuilder().setExperimentId(experiment).setTaskId(taskId).setPublishedAtMs(publishedAtMs)
        .setPublisher(PUBLISHER).build();
  }

  /** {@code expresso <revision> on <host>}: where published tasks come from. */
  public static final String PUBLISHER = "expresso " + Versions.revision() + " on " + host();

  private static String host() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException | SecurityException e) {
      return "unknown-host";
    }
  }

  /** One pair task per pair and seed; ids {@code <experiment>/<method>/<pair index>/s<seed>}. */
  public static List<PairTask> pairTasks(String experiment, Suite suite, String method, long[] seeds,
      TrainingSettings training, RpcSettings rpc) {
    List<PairTask> out = new ArrayList<>();
    forEachPairTask(experiment, suite, method, seeds, training, rpc, out::add);
    return out;
  }

  /**
   * The tasks of {@link #pairTasks}, in the same order, handed to {@code sink} one at a time: a
   * publisher sends each as it comes, so the tasks of a whole suite times its seeds (BREC: 400
   * pairs x 10 seeds, each task with its pair's 128 relabelings) never sit in memory together.
   * A pair's graphs are encoded once and its relabelings message is shared by its seeds' tasks.
   */
  public static void forEachPairTask(String experiment, Suite suite, String method, long[] seeds,
      TrainingSettings training, RpcSettings rpc, Consumer<PairTask> sink) {
    long now = System.currentTimeMillis();
    for (GraphPair p : (Iterable<GraphPair>) suite.pairs()::iterator) {
      PairTask.Builder pair = PairTask.newBuilder()
          .setSuiteId(suite.id())
          .setPairIndex(p.index())
          .setCategory(p.category())
          .setGraphFirst(Graph6.encode(p.first()))
          .setGraphSecond(Graph6.encode(p.second()))
          .setMethod(method);
      if (training != null) {
        pair.setTraining(training);
      }
      if (rpc != null) {
        pair.setRpc(rpc);
      }
      if (p.relabelings() != null) {
        pair.setRelabelings(Relabelings.newBuilder()
            .addAllFirst(encode(p.relabelings().first()))
            .addAllSecond(encode(p.relabelings().second()))
            .addAllReliabilityFirst(encode(p.relabelings().reliabilityFirst()))
            .addAllReliabilitySecond(encode(p.relabelings().reliabilitySecond()))
            .build());
      }
      for (long seed : seeds) {
        String id = experiment + "/" + method + "/" + p.index() + "/s" + seed;
        sink.accept(pair.setHeader(header(experiment, id, now)).setSeed(seed).build());
      }
    }
  }

  private static List<String> encode(List<Graph> graphs) {
    return graphs.stream().map(Graph6::encode).toList();
  }

  /** One synthetic task, ids {@code <experiment>/synthetic/<i>}, stamped with the publish time. */
  public static SyntheticTask syntheticTask(String experiment, int i, int workMs) {
    return syntheticTask(experiment, i, workMs, "");
  }

  /** One synthetic task with an injected {@code fault} (crash, oom, hang; "" for none). */
  public static SyntheticTask syntheticTask(String experiment, int i, int workMs, String fault) {
    Instant now = Instant.now();
    return SyntheticTask.newBuilder()
        .setFault(fault)
        .setHeader(header(experiment, experiment + "/synthetic/" + i, now.toEpochMilli()))
        .setWorkMs(workMs)
        .setPublishedAtNanos(now.getEpochSecond() * 1_000_000_000L + now.getNano())
        .build();
  }
}
