package io.expresso.model;

import io.expresso.engine.PassThreads;
import io.expresso.engine.MemoryBudget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractIntegerAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Inference passes side by side compute exactly what they compute one after another. */
class ParallelPassesTest {

  /** 150 graphs of 4 to 12 vertices, each relabelled: three passes of 50 on a CPU. */
  private static List<Graph> graphs() {
    List<Graph> out = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      Graph g = i % 3 == 0 ? Constructions.cycle(4 + i % 9) : i % 3 == 1 ? Constructions.decalin()
          : Constructions.bicyclopentyl();
      int n = g.n();
      int[] p = new int[n];
      for (int v = 0; v < n; v++) {
        p[v] = (n - 1 - v + i) % n; // reversal then rotation: a permutation
      }
      out.add(g.relabel(p));
    }
    return out;
  }

  @ParameterizedTest // DropGNN runs its passes one at a time, its draws in order: DropGnnTest
  @EnumSource(value = Architecture.class, names = "DROP_GNN", mode = EnumSource.Mode.EXCLUDE)
  void embeddingsOnThreeThreadsEqualTheSequentialOnesBitForBit(Architecture a) {
    assertSameOnThreeThreads(ModelSpec.defaults(a), passes -> passes.isEqualTo(3));
  }

  @ParameterizedTest
  @ValueSource(strings = {"gin.pt", "dense-gin.pt,input=dense"})
  void aTorchScriptModuleEmbedsTheSameOnThreeThreads(String module) {
    assertSameOnThreeThreads(TorchScriptFixtures.spec(module), passes -> passes.isGreaterThan(1));
  }

  /** Embeds {@link #graphs} one pass after another, then on three threads: the same bits. */
  private static void assertSameOnThreeThreads(NetworkSpec spec, Consumer<AbstractIntegerAssert<?>> passesAtOnce) {
    List<Graph> graphs = graphs();
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 3)) {
      float[][] sequential = m.embed(graphs);
      m.useInferenceThreads(3);
      passesAtOnce.accept(assertThat(m.inferencePassesAtOnce(graphs)));
      assertThat(m.embed(graphs)).isDeepEqualTo(sequential);
    }
  }

  @Test
  void passesRunSideBySideOnlyAsFarAsTheBudgetHoldsThem() {
    List<Graph> graphs = graphs();
    try (GraphModel m = GraphModel.create(ModelSpec.defaults(Architecture.PPGN), Head.EMBEDDING, Device.cpu(), 3)) {
      m.useInferenceThreads(8);
      assertThat(m.inferencePassesAtOnce(graphs)).isEqualTo(3); // three passes, not eight threads
      m.useMemoryBudget(MemoryBudget.parse("1m")); // one pass fills the budget
      assertThat(m.inferencePassesAtOnce(graphs)).isEqualTo(1);
      assertThatThrownBy(() -> m.useInferenceThreads(0)).hasMessageContaining("at least 1");
    }
  }

  @Test
  void aFailingPassFailsTheCallAfterEveryPassHasEnded() {
    java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
    assertThatThrownBy(() -> PassThreads.run(6, 3, i -> {
      ran.incrementAndGet();
      if (i == 1) {
        throw new IllegalStateException("pass 1 failed");
      }
    })).hasMessage("pass 1 failed");
    assertThat(ran.get()).isBetween(2, 6);
  }

  @Test
  void theDiagonalMaxOfUnpaddedGraphsEqualsTheMaskedMaxValueAndGradient() {
    try (NDManager m = NDManager.newBaseManager(Device.cpu())) {
      int n = 7;
      // rounded values: ties on and off the diagonal
      NDArray x = m.randomNormal(new Shape(3, 4, n, n)).mul(2).round().div(2);
      NDArray[] viaMask;
      NDArray[] viaDiagonal;
      viaMask = valueAndGradient(x, v -> PpgnBlock.maxOver(v, PpgnBlock.maxMask(m.eye(n).reshape(1, 1, n, n))));
      viaDiagonal = valueAndGradient(x, PpgnBlock::maxOverDiagonal);
      assertThat(viaDiagonal[0].toFloatArray()).isEqualTo(viaMask[0].toFloatArray());
      assertThat(viaDiagonal[1].toFloatArray()).isEqualTo(viaMask[1].toFloatArray());
      assertThat(viaDiagonal[1].sum().getFloat()).isEqualTo(3 * 4); // one cell per graph and channel
    }
  }

  private static NDArray[] valueAndGradient(NDArray x, java.util.function.UnaryOperator<NDArray> f) {
    NDArray v = x.duplicate();
    v.setRequiresGradient(true);
    try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
      NDArray y = f.apply(v);
      gc.backward(y.sum());
      return new NDArray[] {y.duplicate(), v.getGradient().duplicate()};
    }
  }
}
