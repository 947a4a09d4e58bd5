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
    forEachInterleavedPairTask(experiment, suite, List.of(method), seeds, 1, training, rpc, sink);
  }

  /**
   * The pair tasks of several methods on one suite (BREC's leaderboard: models x pairs x seeds),
   * interleaved so that every method is under way from the first tasks on, not one method after
   * another: the suite's pairs in chunks of {@code chunkPairs}, and per chunk every seed, and per
   * seed every method, takes its turn on the chunk's pairs. A worker fleet takes tasks roughly in
   * publish order, so a run cut short holds the same pairs for every method. Streamed as
   * {@link #forEachPairTask} (a chunk's pairs are encoded once for all its methods and seeds);
   * ids as {@link #pairTaskId}, so a leaderboard and {@code publish brec} of one experiment mix.
   */
  public static void forEachInterleavedPairTask(String experiment, Suite suite, List<String> methods, long[] seeds,
      int chunkPairs, TrainingSettings training, RpcSettings rpc, Consumer<PairTask> sink) {
    if (chunkPairs < 1) {
      throw new IllegalArgumentException("pairs per chunk must be at least 1, got " + chunkPairs);
    }
    long now = System.currentTimeMillis();
    java.util.Iterator<GraphPair> pairs = suite.pairs().iterator();
    List<PairTask.Builder> chunk = new ArrayList<>(Math.min(chunkPairs, 1024));
    while (pairs.hasNext()) {
      chunk.clear();
      while (pairs.hasNext() && chunk.size() < chunkPairs) {
        chunk.add(pairMessage(suite, pairs.next(), training, rpc));
      }
      for (long seed : seeds) {
        for (String method : methods) {
          for (PairTask.Builder pair : chunk) {
            String id = pairTaskId(experiment, method, pair.getPairIndex(), seed);
            sink.accept(pair.setMethod(method).setHeader(header(experiment, id, now)).setSeed(seed).build());
          }
        }
      }
    }
  }

  /** The id of a pair task: {@code <experiment>/<method>/<pair index>/s<seed>}. */
  public static String pairTaskId(String experiment, String method, int pairIndex, long seed) {
    return experiment + "/" + method + "/" + pairIndex + "/s" + seed;
  }

  /** A pair's part of its tasks (graphs, relabelings, settings), encoded once for every method and seed. */
  private static PairTask.Builder pairMessage(Suite suite, GraphPair p, TrainingSettings training, RpcSettings rpc) {
    PairTask.Builder pair = PairTask.newBuilder()
        .setSuiteId(suite.id())
        .setPairIndex(p.index())
        .setCategory(p.category())
        .setGraphFirst(Graph6.encode(p.first()))
        .setGraphSecond(Graph6.encode(p.second()));
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
    return pair;
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
