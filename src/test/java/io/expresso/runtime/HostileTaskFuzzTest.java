package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.AttackJob;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Relabelings;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainJob;
import io.expresso.proto.v1.TrainTask;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 10,000 generated and mutated task messages through a real worker on the embedded broker:
 * random bytes, truncated and bit-flipped protobuf, and valid protobuf with hostile fields (huge
 * declared n, huge model specs, NaN, negative and huge hyper-parameters, unknown methods), with
 * valid tasks between them. Every record must end as exactly one committed result (matched by
 * the topic, partition and offset in its provenance), failures with a dead letter, every valid
 * task must succeed, the worker must never restart, and the heap must stay bounded.
 */
@Integration
class HostileTaskFuzzTest {

  private static final int HOSTILE = 10_000;
  private static final int VALID = 500;
  /** Heap bound for the whole test JVM (broker, worker, clients), sampled while the worker runs. */
  private static final long HEAP_BOUND = 1536L << 20;

  private static final String C5 = "Dhc"; // the 5-cycle in graph6
  private static final String K4 = "C~";

  @Test
  @Timeout(600)
  void tenThousandHostileMessagesEndAsResultsOrBoundedDeadLettersAndValidTasksComplete() throws Exception {
    List<Fuzz> hostile = Combinators.combine(kind(), Arbitraries.integers().between(0, 6), Arbitraries.longs())
        .as(HostileTaskFuzzTest::hostile).sampleStream().limit(HOSTILE).toList();
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 4);
      AtomicLong restarts = new AtomicLong();
      TaskObserver watch = new TaskObserver() {
        @Override
        public void onRestart() {
          restarts.incrementAndGet();
        }
      };
      // small limits, so no hostile task that passes them trains for long
      Worker.Settings s = Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:1")).withWorkerId("fuzz-worker")
          .withLimits(TaskLimits.DEFAULTS.with("epochs=2,q=16,hidden=64,layers=4,dense-vertices=64,cubic-vertices=16,model-vertices=32"))
          .withTimeouts(TaskTimeouts.parse("pair=30s,train=30s,attack=30s,synthetic=10s"));
      AtomicLong peakHeap = new AtomicLong();
      AtomicBoolean sampling = new AtomicBoolean(true);
      Thread sampler = new Thread(() -> {
        while (sampling.get()) {
          peakHeap.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
          try {
            Thread.sleep(50);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      sampler.start();
      long started = System.nanoTime();
      Set<String> validIds = new HashSet<>();
      try (Worker w = Worker.start(s, EvaluatorRegistry.defaults(), watch);
           Publisher p = new Publisher(broker.bootstrap())) {
        Random r = new Random(7);
        int v = 0;
        for (int i = 0; i < hostile.size(); i++) {
          Fuzz f = hostile.get(i);
          p.sendRaw(f.type(), "fuzz/" + i, f.bytes());
          if (i % (HOSTILE / VALID) == 0 && v < VALID) {
            String id = "fuzz-valid/" + v++;
            validIds.add(id);
            if (r.nextBoolean()) {
              p.send(id, PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz-valid").setTaskId(id))
                  .setMethod(r.nextBoolean() ? "1-wl" : "3-wl").setGraphFirst(C5).setGraphSecond(K4).build());
            } else {
              p.send(id, SyntheticTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz-valid").setTaskId(id)).build());
            }
          }
        }
        p.flush();
        int published = hostile.size() + validIds.size();
        Map<String, Result> bySource = awaitResults(broker.bootstrap(), published, Duration.ofSeconds(480));
        double seconds = (System.nanoTime() - started) / 1e9;
        sampling.set(false);
        sampler.join();

        assertThat(bySource).as("one committed result per published record").hasSize(published);
        List<Result> valid = bySource.values().stream().filter(x -> validIds.contains(x.getTaskId())).toList();
        assertThat(valid).hasSize(VALID).noneMatch(Result::hasError);
        long errors = bySource.values().stream().filter(Result::hasError).count();
        Map<String, Long> reasons = new HashMap<>();
        bySource.values().stream().filter(Result::hasError)
            .forEach(x -> reasons.merge(x.getError().getReason(), 1L, Long::sum));
        List<ConsumerRecord<String, byte[]>> dead = CommittedRecords.of(broker.bootstrap(), Topics.DEAD_LETTERS);
        assertThat(dead).as("a dead letter per error result").hasSize((int) errors);
        assertThat(dead).allSatisfy(d -> {
          assertThat(d.headers().lastHeader(Topics.HEADER_REASON)).isNotNull();
          assertThat(d.value() == null ? 0 : d.value().length).isLessThanOrEqualTo(TaskProcessor.DEAD_LETTER_VALUE_LIMIT);
        });
        assertThat(restarts.get()).as("task loop restarts").isZero();
        assertThat(peakHeap.get()).as("peak heap used, bytes").isLessThan(HEAP_BOUND);
        System.out.printf("fuzz: %d hostile + %d valid records in %.1f s; %d error results by reason %s; "
            + "%d dead letters; peak heap %d MiB%n", hostile.size(), VALID, seconds, errors, reasons, dead.size(),
            peakHeap.get() >> 20);
      }
    }
  }

  /** A record to publish: the message type its header names, and its value. */
  record Fuzz(String type, byte[] bytes) {}

  private static Arbitrary<TaskKind> kind() {
    return Arbitraries.of(TaskKind.class);
  }

  /** One hostile record of {@code kind}; {@code how} picks the mutation, {@code seed} the details. */
  static Fuzz hostile(TaskKind kind, int how, long seed) {
    Random r = new Random(seed);
    byte[] valid = validTask(kind, r).toByteArray();
    byte[] bytes = switch (how) {
      case 0 -> randomBytes(r, r.nextInt(300));
      case 1 -> java.util.Arrays.copyOf(valid, r.nextInt(valid.length + 1)); // truncated
      case 2 -> flipBits(valid, r, 1 + r.nextInt(8));
      case 3, 4 -> hostileTask(kind, r).toByteArray();
      case 5 -> flipBits(hostileTask(kind, r).toByteArray(), r, 1 + r.nextInt(4));
      default -> new byte[0];
    };
    return new Fuzz(r.nextInt(20) == 0 ? hostileType(r) : kind.messageType(), bytes);
  }

  /** A header that names no kind: empty, unknown, or garbage. */
  private static String hostileType(Random r) {
    return switch (r.nextInt(3)) {
      case 0 -> "";
      case 1 -> "expresso.v1.NoSuchTask";
      default -> new String(randomBytes(r, r.nextInt(40)), java.nio.charset.StandardCharsets.ISO_8859_1);
    };
  }

  private static com.google.protobuf.Message validTask(TaskKind kind, Random r) {
    String id = "fuzz/v" + r.nextInt(1000);
    return switch (kind) {
      case PAIR -> PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id)).setMethod("1-wl").setGraphFirst(C5)
          .setGraphSecond(K4).build();
      case SYNTHETIC -> SyntheticTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id)).setWorkMs(r.nextInt(3)).build();
      case TRAIN -> TrainTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id)).setJob(TrainJob.newBuilder().setModelId("x")).build();
      case ATTACK -> AttackTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id)).setJob(AttackJob.newBuilder().setAttackId("a").setModelId("missing")).build();
      case DATASET -> DatasetTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id))
          .setDataset("csl").setModel("gin:hidden=4,layers=1").setProtocol("quick").setMaxEpochs(1).build();
    };
  }

  private static final String[] HOSTILE_GRAPHS = {":~F~~", "~?~~~", "~~??????", "", "&C~", ";Bo", "C\u0000~", "?", "@",
      "}}}}not-graph6", "Dhc\n\n\n"};
  private static final String[] HOSTILE_METHODS = {"gin:hidden=99999", "ppgn:layers=999", "gin:" + "x".repeat(300_000),
      "4-wl", "spd-wl", "no-such", "", "1-WL", "ngnn-de:radius=-3", "gin:hidden=NaN", "<script>alert(1)</script>",
      "gin:layers=1,hidden=1,d=0", "\u202e\u0007"};

  private static final String[] HOSTILE_DATASETS = {"tu:/nonexistent/MUTAG", "tu:", "clean:", "csl:seed=x",
      "planted:size=3", "no-such", "", "tu:/etc"};

  private static com.google.protobuf.Message hostileTask(TaskKind kind, Random r) {
    String id = r.nextInt(10) == 0 ? "" : "fuzz/h" + r.nextInt(1_000_000);
    double[] weird = {Double.NaN, Double.POSITIVE_INFINITY, -1, 1e300, -0.0, 0};
    int[] weirdInts = {-1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0, 1 << 20};
    TrainingSettings training = TrainingSettings.newBuilder().setEpochs(weirdInts[r.nextInt(weirdInts.length)])
        .setLearningRate(weird[r.nextInt(weird.length)]).setBatchSize(weirdInts[r.nextInt(weirdInts.length)])
        .setWeightDecay(weird[r.nextInt(weird.length)]).setLossThreshold(weird[r.nextInt(weird.length)]).build();
    return switch (kind) {
      case PAIR -> {
        PairTask.Builder b = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id))
            .setMethod(HOSTILE_METHODS[r.nextInt(HOSTILE_METHODS.length)])
            .setGraphFirst(HOSTILE_GRAPHS[r.nextInt(HOSTILE_GRAPHS.length)])
            .setGraphSecond(r.nextBoolean() ? C5 : HOSTILE_GRAPHS[r.nextInt(HOSTILE_GRAPHS.length)])
            .setPairIndex(weirdInts[r.nextInt(weirdInts.length)]);
        if (r.nextBoolean()) {
          b.setTraining(training).setRpc(RpcSettings.newBuilder().setQ(weirdInts[r.nextInt(weirdInts.length)])
              .setAlpha(weird[r.nextInt(weird.length)]).setThresholdMode(r.nextBoolean() ? "rapc" : "bonferroni")
              .setConvention(r.nextBoolean() ? "" : "\u202e"));
        }
        if (r.nextInt(4) == 0) {
          Relabelings.Builder rl = Relabelings.newBuilder();
          for (int i = 0; i < r.nextInt(40); i++) {
            rl.addFirst(HOSTILE_GRAPHS[r.nextInt(HOSTILE_GRAPHS.length)]);
          }
          b.setRelabelings(rl);
        }
        yield b.build();
      }
      case SYNTHETIC -> SyntheticTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id))
          .setWorkMs(weirdInts[r.nextInt(weirdInts.length)] % 3).setFail(r.nextBoolean() ? "" : "nan")
          .setFault(r.nextInt(3) == 0 ? "crash" : "").build(); // faults are refused: the worker has no --allow-faults
      case TRAIN -> TrainTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id))
          .setJob(TrainJob.newBuilder().setSpec(HOSTILE_METHODS[r.nextInt(HOSTILE_METHODS.length)])
              .setScale(r.nextBoolean() ? "paper" : "huge").setModelId(r.nextBoolean() ? "" : "m")
              .setPattern(r.nextBoolean() ? "triangle" : "no-such").setDataset(r.nextBoolean() ? "er-0.3" : "<b>")).build();
      case ATTACK -> AttackTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id))
          .setJob(AttackJob.newBuilder().setSpec(HOSTILE_METHODS[r.nextInt(HOSTILE_METHODS.length)])
              .setBeam(weirdInts[r.nextInt(weirdInts.length)]).addBudgetFractions(weird[r.nextInt(weird.length)])
              .setAttackId("a").setModelId("missing").setSpace(r.nextBoolean() ? "any" : "").setScale("tiny")).build();
      case DATASET -> DatasetTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("fuzz").setTaskId(id))
          .setDataset(HOSTILE_DATASETS[r.nextInt(HOSTILE_DATASETS.length)])
          .setModel(HOSTILE_METHODS[r.nextInt(HOSTILE_METHODS.length)]).setProtocol(r.nextBoolean() ? "quick" : "no-such")
          .setFolds(weirdInts[r.nextInt(weirdInts.length)]).setFold(weirdInts[r.nextInt(weirdInts.length)])
          .setMaxEpochs(1).setMaxHours(weird[r.nextInt(weird.length)]).build();
    };
  }

  private static byte[] randomBytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  private static byte[] flipBits(byte[] b, Random r, int flips) {
    byte[] out = b.clone();
    for (int i = 0; i < flips && out.length > 0; i++) {
      out[r.nextInt(out.length)] ^= (byte) (1 << r.nextInt(8));
    }
    return out;
  }

  /** Committed results by their source record (topic/partition@offset), once {@code n} have arrived. */
  private static Map<String, Result> awaitResults(String bootstrap, int n, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Result> out = new HashMap<>();
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = c.partitionsFor(Topics.RESULTS).stream()
          .map(i -> new TopicPartition(Topics.RESULTS, i.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      while (out.size() < n) {
        assertThat(System.nanoTime()).as("%d of %d results", out.size(), n).isLessThan(deadline);
        for (ConsumerRecord<String, byte[]> rec : c.poll(Duration.ofMillis(500))) {
          Result res = Result.parseFrom(rec.value());
          String source = res.getProvenance().getTopic() + "/" + res.getProvenance().getPartition() + "@"
              + res.getProvenance().getOffset();
          assertThat(out.put(source, res)).as("a second committed result for %s", source).isNull();
        }
      }
    }
    return out;
  }
}
