package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.suite.GraphPair;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PairsAtOnceTest {

  private static List<PairsAtOnce.Job> jobs(int n) {
    Graph g = Graph.fromEdges(2, 0, 1);
    List<PairsAtOnce.Job> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new PairsAtOnce.Job(0, i, 0L, new GraphPair(i, "c", g, g, null)));
    }
    return out;
  }

  @Test
  void runsUpToNAtOnceOnThreadsOfTheirOwnAndReportsEveryJobOnce() {
    CountDownLatch bothIn = new CountDownLatch(2);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    ConcurrentHashMap<Integer, String> threadOf = new ConcurrentHashMap<>();
    List<Integer> done = new ArrayList<>();
    PairsAtOnce.run(jobs(6), 2, (job, stop) -> {
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      threadOf.put(job.position(), Thread.currentThread().getName());
      bothIn.countDown();
      try {
        // the first two meet: two really run at once
        assertThat(bothIn.await(10, TimeUnit.SECONDS)).isTrue();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      running.decrementAndGet();
      if (job.position() == 3) {
        throw new PairEvaluationException("pair 3: embeddings not finite", null);
      }
      return null;
    }, (job, result, error) -> {
      done.add(job.position());
      assertThat(error == null).isEqualTo(job.position() != 3);
    });
    assertThat(most.get()).isEqualTo(2);
    assertThat(done).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5); // the pair in error is reported, the rest go on
    assertThat(threadOf.values()).allMatch(n -> n.startsWith("expresso-eval-")).doesNotContain(Thread.currentThread().getName());
  }

  @Test
  void anyOtherFailureStopsThePairsNotYetStartedAndIsRethrown() {
    AtomicInteger started = new AtomicInteger();
    List<Integer> done = new ArrayList<>();
    assertThatThrownBy(() -> PairsAtOnce.run(jobs(50), 1, (job, stop) -> {
      started.incrementAndGet();
      if (job.position() == 2) {
        throw new IllegalStateException("native crash in pair 2");
      }
      return (PairEvaluation) null;
    }, (job, result, error) -> done.add(job.position())))
        .isInstanceOf(IllegalStateException.class).hasMessage("native crash in pair 2");
    assertThat(started.get()).isEqualTo(3);
    assertThat(done).containsExactly(0, 1);
  }

  @Test
  void aResultThatCannotBeKeptStopsTheRestToo() {
    AtomicInteger started = new AtomicInteger();
    assertThatThrownBy(() -> PairsAtOnce.run(jobs(50), 1, (job, stop) -> {
      started.incrementAndGet();
      return (PairEvaluation) null;
    }, (job, result, error) -> {
      if (job.position() == 1) {
        throw new java.io.UncheckedIOException("results.jsonl: disk full", new java.io.IOException("disk full"));
      }
    })).isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("disk full");
    assertThat(started.get()).isEqualTo(2);
  }

  @Test
  void refusesFewerThanOneAtOnce() {
    assertThatThrownBy(() -> PairsAtOnce.run(jobs(1), 0, (job, stop) -> null, (job, r, e) -> { }))
        .hasMessageContaining("at least 1, got 0");
  }
}
