package io.expresso.runtime.kafka;

import com.google.protobuf.Message;
import io.expresso.graph.Graph6;
import io.expresso.graph.Graph;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Relabelings;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.Versions;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Suite;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Puts tasks on their topics (key = task id) with an idempotent producer, and builds the task
 * messages for suites and synthetic load. Task ids are deterministic, so publishing the same
 * experiment twice yields the same ids and the aggregator counts each task once.
 *
 * <p>Tasks go to the partitions of their topic in turn (from a random one), not by a hash of the
 * key: a partition is the unit a worker owns, so 24 long tasks on 32 partitions should be 24
 * partitions with one task each, not a hash's clumps that leave one worker the longest queue.
 */
public final class Publisher implements AutoCloseable {

  private final KafkaProducer<String, byte[]> producer;
  // the first send that failed since the last flush; a callback per send instead of a kept Future
  // per send, so publishing millions of tasks holds nothing per task
  private final AtomicReference<Exception> failed = new AtomicReference<>();
  private final Map<String, Integer> partitions = new HashMap<>();
  private int turn = java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 16);

  /** A publisher to the plaintext cluster at {@code bootstrap} (the embedded broker, tests). */
  public Publisher(String bootstrap) {
    this(KafkaClients.of(bootstrap));
  }

  public Publisher(KafkaClients clients) {
    Properties p = clients.producer();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "131072");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 << 20));
    // big tasks (relabelings, long specs) compress well; the broker's 1 MiB limit is on the compressed batch
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

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

  /** Sends one task (asynchronously; {@link #flush} waits for all). */
  public void send(TaskKind kind, String taskId, Message task) {
    sendRaw(kind.topic(), taskId, task.toByteArray());
  }

  /** Sends raw bytes to a task topic (for fault tests: garbage must end in dead letters). */
  public void sendRaw(String topic, String key, byte[] value) {
    int n = partitions.computeIfAbsent(topic, t -> producer.partitionsFor(t).size());
    int partition = Math.floorMod(turn++, n);
    producer.send(new ProducerRecord<>(topic, partition, key, value), (metadata, e) -> {
      if (e != null) {
        failed.compareAndSet(null, e);
      }
    });
  }

  /** Waits until every task sent so far is acknowledged; throws if any failed. */
  public void flush() {
    producer.flush(); // returns once every send so far has completed, its callback included
    Exception e = failed.getAndSet(null);
    if (e != null) {
      throw new IllegalStateException("publishing failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    producer.close();
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
