package io.expresso.robust;

import io.expresso.count.Pattern;
import java.util.Optional;

/**
 * What {@code expresso.models} says about one checkpoint, without its parameters: enough to
 * publish an attack on it (the spec is the metrics label, the train job gives the scale and
 * dataset it was trained at).
 *
 * @param trainedBy the train job that stored it; empty for checkpoints stored without one
 */
public record StoredModel(String key, String spec, Pattern pattern, Optional<TrainJob> trainedBy) {}
