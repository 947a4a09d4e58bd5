package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import io.expresso.engine.ThreadGradients;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No pass leaves arrays on its model's manager: what a training pass or an embedding pass
 * computes is freed when the pass ends, so a pair holds one pass's activations (what the memory
 * budget sizes), not one more per step until the model closes (see {@link PassValues}).
 */
class PassArraysTest {

  @Test
  void noModelKeepsArraysOfAPassOnItsManager() {
    List<Graph> graphs = List.of(Constructions.cycle(6), Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3));
    List<NetworkSpec> specs = new java.util.ArrayList<>();
    for (Architecture a : Architecture.values()) {
      specs.add(ModelSpec.parse(a.cliName() + ":layers=2")); // two layers each: the same code, in seconds
    }
    specs.add(TorchScriptFixtures.spec("gin.pt")); // a user's module, sparse and dense
    specs.add(TorchScriptFixtures.spec("dense-gin.pt,input=dense"));
    for (NetworkSpec spec : specs) {
      String name = spec.toText().length() > 40 ? spec.toText().substring(0, 40) : spec.toText();
      try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 1L);
          Trainer trainer = m.newTrainer(new DefaultTrainingConfig(Loss.l2Loss()).optDevices(new Device[] {Device.cpu()}))) {
        int held = m.arraysHeld();
        for (int pass = 1; pass <= 2; pass++) {
          try (ThreadGradients recording = new ThreadGradients();
              NDManager sub = trainer.getManager().newSubManager()) {
            trainer.forward(m.encode(sub, graphs));
          }
          assertThat(m.arraysHeld()).as("%s after training pass %d", name, pass).isEqualTo(held);
          m.embed(graphs);
          assertThat(m.arraysHeld()).as("%s after embedding pass %d", name, pass).isEqualTo(held);
        }
      }
    }
  }
}
