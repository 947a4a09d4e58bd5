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
}
