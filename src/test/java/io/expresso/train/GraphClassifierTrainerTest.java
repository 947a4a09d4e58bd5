package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import io.expresso.dataset.CslDataset;
import io.expresso.dataset.GraphDataset;
import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import java.util.Arrays;
import java.util.List;
import io.expresso.suite.Constructions;
import org.junit.jupiter.api.Test;

class GraphClassifierTrainerTest {

  /** GIN-ε's ε is a trained parameter: it starts at 0 and training moves it. */
  @Test
  void learnedEpsilonMovesDuringTraining() {
    GraphDataset csl = CslDataset.build("csl", 0);
    List<Graph> graphs = csl.graphs().stream().map(LabeledGraph::graph).toList();
    List<Graph> train = graphs.subList(0, 30);
    int[] labels = Arrays.copyOfRange(csl.labels(), 0, 30);
    ModelSpec spec = ModelSpec.parse("gin:layers=2,hidden=16,pe=4,residual=true,learn-eps=true").withEmbedding(10);
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 5)) {
      assertThat(m.parameterValues("eps0")).containsExactly(0f);
      GraphClassifierTrainer.Examples examples = GraphClassifierTrainer.Examples.classes(train, labels);
      GraphClassifierTrainer.Outcome o = GraphClassifierTrainer.train(m, examples, examples, examples,
          DatasetProtocol.QUICK.withCaps(2, 0), 1, () -> false, null);
      assertThat(o.epochs()).isEqualTo(2);
      assertThat(m.parameterValues("eps0")[0]).isNotEqualTo(0f);
      assertThat(m.parameterValues("eps1")[0]).isNotEqualTo(0f);
    }
  }

  /** OSAN's scorer trains under dataset training as under siamese training: I-MLE's gradient reaches it. */
  @Test
  void osansScorerLearnsUnderDatasetTraining() {
    // graphs whose edges the scorer can tell apart (on a regular graph every score ties and only the noise picks)
    List<Graph> train = List.of(Constructions.decalin(), Constructions.bicyclopentyl(), Constructions.cycle(5),
        Graph.fromEdges(4, 0, 1, 1, 2, 2, 3, 1, 3), Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4, 0, 2));
    int[] labels = {0, 1, 0, 1, 1};
    ModelSpec spec = ModelSpec.parse("osan:layers=2,hidden=8").withEmbedding(2);
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 5)) {
      String logits = m.parameterNames().stream().filter(n -> n.contains("linEdge") && n.endsWith("weight"))
          .findFirst().orElseThrow();
      float[] before = m.parameterValues(logits);
      GraphClassifierTrainer.Examples examples = GraphClassifierTrainer.Examples.classes(train, labels);
      GraphClassifierTrainer.train(m, examples, examples, examples, DatasetProtocol.QUICK.withCaps(3, 0), 1,
          () -> false, null);
      assertThat(m.parameterValues(logits)).isNotEqualTo(before);
    }
  }
}
