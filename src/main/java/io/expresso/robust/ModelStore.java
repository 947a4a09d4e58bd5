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

  /** A store in this process's memory (single-process runs and tests). */
  static ModelStore inMemory() {
    Map<String, byte[]> map = new ConcurrentHashMap<>();
    return new ModelStore() {
      @Override
      public void put(String modelId, byte[] checkpoint) {
        map.put(modelId, checkpoint.clone());
      }

      @Override
      public Optional<byte[]> get(String modelId) {
        return Optional.ofNullable(map.get(modelId)).map(byte[]::clone);
      }
    };
  }
}
