package io.expresso.robust.fleet;

import io.expresso.robust.TrainJob;
import io.expresso.proto.v1.TrainProgress;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import io.expresso.train.CountRegressionTrainer;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends each finished epoch of a worker's train tasks to {@code expresso.progress}
 * ({@link TrainProgress}, key = task id). Fire and forget, outside the task's transaction: progress
 * is for people watching, so a failed send is logged and training goes on.
 */
final class TrainProgressPublisher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TrainProgressPublisher.class);

  private final KafkaProducer<String, byte[]> producer;
  private final String workerId;

  TrainProgressPublisher(KafkaClients clients, String workerId) {
    Properties p = clients.producer();
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    this.workerId = workerId;
  }

  static TrainProgress message(String experimentId, String taskId, TrainJob job, int maxEpochs,
      CountRegressionTrainer.Epoch e, String workerId) {
    return TrainProgress.newBuilder().setExperimentId(experimentId).setTaskId(taskId).setModel(job.spec())
        .setPattern(job.pattern().cliName()).setDataset(job.dataset()).setSeed(job.seed()).setEpoch(e.epoch())
        .setMaxEpochs(maxEpochs).setTrainL1(e.trainLoss()).setValidationL1(e.validationL1())
        .setLearningRate(e.learningRate()).setWorkerId(workerId).build();
  }

  void send(String experimentId, String taskId, TrainJob job, int maxEpochs, CountRegressionTrainer.Epoch e) {
    producer.send(new ProducerRecord<>(Topics.PROGRESS, taskId,
        message(experimentId, taskId, job, maxEpochs, e, workerId).toByteArray()), (md, ex) -> {
          if (ex != null) {
            LOG.warn("progress of {} epoch {} not sent to {}: {}", taskId, e.epoch(), Topics.PROGRESS, ex.toString());
          }
        });
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
