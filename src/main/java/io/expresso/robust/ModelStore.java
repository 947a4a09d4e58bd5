package io.expresso.robust;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Trained checkpoints by model id. In a distributed run this is the compacted
 * {@code expresso.models} topic (key = model id), so any worker can load any model.
 */
public interface ModelStore {

  void put(String modelId, byte[] checkpoint);

  /** Stores the checkpoint a train job produced; a store that keeps metadata keeps the job too. */
  default void put(TrainJob trainedBy, byte[] checkpoint) {
    put(trainedBy.modelId(), checkpoint);
  }

  Optional<byte[]> get(String modelId);

  /** The key of a train job's progress record: {@code <model_id>#progress}. */
  static String progressKey(String modelId) {
    return modelId + "#progress";
  }

  /** Saves the training state of a running job (replacing its previous one). */
  void putProgress(TrainJob job, byte[] state);

  /**
   * The training state an earlier attempt of {@code job} saved, read fresh from the store; empty
   * when there is none or when it was saved by a different job under the same model id (another
   * spec, seed or size), which must not be resumed.
   */
  Optional<byte[]> getProgress(TrainJob job);

  /** Drops a job's progress record (on Kafka a tombstone, so compaction removes it). */
  void deleteProgress(String modelId);

  /** A store in this process's memory (single-process runs and tests). */
  static ModelStore inMemory() {
    Map<String, byte[]> map = new ConcurrentHashMap<>();
    Map<String, TrainJob> progressJobs = new ConcurrentHashMap<>();
    return new ModelStore() {
      @Override
      public void put(String modelId, byte[] checkpoint) {
        map.put(modelId, checkpoint.clone());
      }

      @Override
      public Optional<byte[]> get(String modelId) {
        return Optional.ofNullable(map.get(modelId)).map(byte[]::clone);
      }

      @Override
      public void putProgress(TrainJob job, byte[] state) {
        map.put(progressKey(job.modelId()), state.clone());
        progressJobs.put(job.modelId(), job);
      }

      @Override
      public Optional<byte[]> getProgress(TrainJob job) {
        return job.equals(progressJobs.get(job.modelId())) ? get(progressKey(job.modelId())) : Optional.empty();
      }

      @Override
      public void deleteProgress(String modelId) {
        map.remove(progressKey(modelId));
        progressJobs.remove(modelId);
      }
    };
  }
}
