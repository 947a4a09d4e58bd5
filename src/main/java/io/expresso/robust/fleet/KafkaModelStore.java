package io.expresso.robust.fleet;

import io.expresso.robust.ModelStore;
import io.expresso.robust.RobustProtos;
import io.expresso.robust.TrainJob;
import io.expresso.robust.StoredModel;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.expresso.proto.v1.Checkpoint;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import io.expresso.train.TrainedCountModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Checkpoints on the compacted {@code expresso.models} topic, key = model id, value a
 * {@link Checkpoint} message. {@link #put} waits for the broker's acknowledgement, so a train
 * result is only produced once its checkpoint is durable; {@link #get} reads the topic to its end
 * (compaction keeps the latest checkpoint per id) and caches what it saw.
 */
public final class KafkaModelStore implements ModelStore, AutoCloseable {

  private final KafkaClients clients;
  private final String workerId;
  private final KafkaProducer<String, byte[]> producer;
  private final Map<String, byte[]> seen = new ConcurrentHashMap<>();
  /** The train job JSON of each checkpoint seen ("" when it was stored without one). */
  private final Map<String, io.expresso.proto.v1.TrainJob> jobs = new ConcurrentHashMap<>();

  /** A store on the plaintext cluster at {@code bootstrap} (the embedded broker, tests). */
  public KafkaModelStore(String bootstrap, String workerId) {
    this(KafkaClients.of(bootstrap), workerId);
  }

  public KafkaModelStore(KafkaClients clients, String workerId) {
    this.clients = clients;
    this.workerId = workerId;
    Properties p = clients.producer();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(32 << 20));
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  @Override
  public void put(String modelId, byte[] checkpoint) {
    send(modelId, checkpoint, Checkpoint.newBuilder());
  }

  /** Also records the job's spec, pattern, seed and the whole job, for {@link #describe}. */
  @Override
  public void put(TrainJob trainedBy, byte[] checkpoint) {
    send(trainedBy.modelId(), checkpoint, Checkpoint.newBuilder().setModel(trainedBy.spec())
        .setPattern(trainedBy.pattern().cliName()).setSeed(trainedBy.seed()).setJob(RobustProtos.message(trainedBy)));
  }

  /**
   * Stores a user's TorchScript module under {@code sha256:<hex>} of its bytes (format
   * {@code torchscript}, model = the spec it was published with), once: a key already there is
   * left as it is, the same bytes being the same module.
   *
   * @return the key
   */
  public String putModule(io.expresso.model.TorchScriptSpec spec) {
    String key = spec.location();
    if (get(key).isEmpty()) {
      send(key, spec.module(), Checkpoint.newBuilder().setModel(spec.toText()).setFormat(TORCHSCRIPT_FORMAT));
    }
    return key;
  }

  /** {@link Checkpoint#getFormat} of a user's TorchScript module. */
  public static final String TORCHSCRIPT_FORMAT = "torchscript";

  private void send(String modelId, byte[] checkpoint, Checkpoint.Builder b) {
    send(modelId, checkpoint, b, b.getFormat().isEmpty() ? "expresso-count-model-1/djl-pytorch" : b.getFormat());
  }

  private void send(String key, byte[] bytes, Checkpoint.Builder b, String format) {
    Checkpoint c = b.setKey(key).setParameters(ByteString.copyFrom(bytes)).setFormat(format).setCreatedBy(workerId)
        .setCreatedAtMs(System.currentTimeMillis()).build();
    produce(key, c.toByteArray());
    seen.put(key, bytes.clone());
    jobs.put(key, c.getJob());
  }

  /** Writes and waits for the broker's acknowledgement; a null value is a tombstone. */
  private void produce(String key, byte[] value) {
    try {
      producer.send(new ProducerRecord<>(Topics.MODELS, key, value)).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot write '" + key + "' to " + Topics.MODELS
          + ": " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing '" + key + "' to " + Topics.MODELS, e);
    }
  }

  /** A progress record is a {@link Checkpoint} of format {@code expresso-training-state-1} under {@code <model_id>#progress}. */
  @Override
  public void putProgress(TrainJob job, byte[] state) {
    send(ModelStore.progressKey(job.modelId()), state, Checkpoint.newBuilder().setModel(job.spec())
        .setPattern(job.pattern().cliName()).setSeed(job.seed()).setJob(RobustProtos.message(job)),
        PROGRESS_FORMAT);
  }

  /** Reads the topic to its end first: the state may come from another worker's attempt. */
  @Override
  public Optional<byte[]> getProgress(TrainJob job) {
    String key = ModelStore.progressKey(job.modelId());
    seen.remove(key);
    jobs.remove(key);
    readToEnd();
    byte[] state = seen.get(key);
    if (state == null || !RobustProtos.message(job).equals(jobs.get(key))) {
      return Optional.empty();
    }
    return Optional.of(state.clone());
  }

  @Override
  public void deleteProgress(String modelId) {
    String key = ModelStore.progressKey(modelId);
    produce(key, null);
    seen.remove(key);
    jobs.remove(key);
  }

  static final String PROGRESS_FORMAT = "expresso-training-state-1";

  /** A training state on the topic and the train job that saved it. */
  public record SavedProgress(TrainJob job, byte[] state) {}

  /**
   * Every training state on the topic whose model id starts with {@code prefix} (e.g. an
   * experiment's {@code E/}), by model id, read fresh from the topic's start.
   *
   * @throws IllegalArgumentException when a state's record holds no readable train job
   */
  public List<SavedProgress> progressUnder(String prefix) {
    readToEnd();
    String suffix = ModelStore.progressKey("");
    List<SavedProgress> out = new ArrayList<>();
    for (String key : new TreeSet<>(seen.keySet())) {
      if (!key.startsWith(prefix) || !key.endsWith(suffix)) {
        continue;
      }
      io.expresso.proto.v1.TrainJob m = jobs.get(key);
      try {
        if (m == null || m.getModelId().isEmpty()) {
          throw new IllegalArgumentException("no train job in the record");
        }
        out.add(new SavedProgress(RobustProtos.job(m), seen.get(key).clone()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("training state '" + key + "' in " + Topics.MODELS + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  @Override
  public Optional<byte[]> get(String modelId) {
    byte[] cached = seen.get(modelId);
    if (cached == null) {
      readToEnd();
      cached = seen.get(modelId);
    }
    return Optional.ofNullable(cached).map(byte[]::clone);
  }

  /**
   * The stored model under {@code modelId}, read from the checkpoint's header (no engine is
   * loaded); empty when {@code expresso.models} has no such key.
   *
   * @throws IllegalArgumentException when the record under the key is not a count-model checkpoint
   */
  public Optional<StoredModel> describe(String modelId) {
    Optional<byte[]> bytes = get(modelId);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    TrainedCountModel.Header h;
    try {
      h = TrainedCountModel.header(bytes.get());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("checkpoint '" + modelId + "' in " + Topics.MODELS + ": " + e.getMessage(), e);
    }
    io.expresso.proto.v1.TrainJob job = jobs.get(modelId);
    Optional<TrainJob> trainedBy;
    try {
      trainedBy = job == null || job.getModelId().isEmpty() ? Optional.empty() : Optional.of(RobustProtos.job(job));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("checkpoint '" + modelId + "' in " + Topics.MODELS + ": its train job: "
          + e.getMessage(), e);
    }
    return Optional.of(new StoredModel(modelId, h.spec(), h.pattern(), trainedBy));
  }

  private void readToEnd() {
    Properties p = clients.consumer();
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(32 << 20));
    p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 << 20));
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = c.partitionsFor(Topics.MODELS).stream()
          .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("timed out reading " + Topics.MODELS);
        }
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
          if (r.value() == null) { // a tombstone: the key was deleted (a finished job's progress)
            seen.remove(r.key());
            jobs.remove(r.key());
            continue;
          }
          try {
            Checkpoint cp = Checkpoint.parseFrom(r.value());
            seen.put(r.key(), cp.getParameters().toByteArray());
            jobs.put(r.key(), cp.getJob());
          } catch (InvalidProtocolBufferException e) {
            // Not a checkpoint: skip it (another producer's garbage must not stop model loading).
          }
        }
      }
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
