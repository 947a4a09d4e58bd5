package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.EngineException;
import io.expresso.engine.DeviceOutOfMemory;
import io.expresso.engine.MemoryBudget;
import io.expresso.engine.MemoryPool;
import io.expresso.engine.MemorySource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link PairEvaluator}'s answer to a CUDA out-of-memory error, with a test double for the
 * evaluation (the error comes from a GPU this test does not need): one rerun, alone on the device's
 * pool, with the same budget.
 */
class OutOfMemoryRerunTest {

  private static final long MIB = 1L << 20;
  private static final String OOM = "CUDA out of memory. Tried to allocate 40.00 MiB. GPU 0 has a total capacity of"
      + " 139.80 GiB of which 27.12 MiB is free. Of the allocated memory 123.04 GiB is allocated by PyTorch";
  private static final String WHAT = "pair 359 (CFI) under sswl-p on gpu:0";

  /** An evaluation that leases 10 MiB, runs out of memory on its first {@code failures} runs, and records each run. */
  private static final class Evaluation implements Function<MemorySource, String> {
    final MemoryPool pool;
    final int failures;
    final AtomicInteger runs = new AtomicInteger();
    final List<Long> budgets = new ArrayList<>();
    final List<Long> freeWhileRunning = new ArrayList<>();

    Evaluation(MemoryPool pool, int failures) {
      this.pool = pool;
      this.failures = failures;
    }

    @Override
    public String apply(MemorySource memory) {
      try (MemorySource.Lease lease = memory.lease(10 * MIB, () -> false)) {
        budgets.add(lease.budget().bytes());
        freeWhileRunning.add(pool.free());
        if (runs.incrementAndGet() <= failures) {
          // as PairEvaluator's own attempt names it, the engine's error inside
          throw DeviceOutOfMemory.of(new RuntimeException(new EngineException(OOM)), 10 * MIB, lease.budget(), 32, 32);
        }
        return "judged on run " + runs.get();
      }
    }
  }

  @Test
  void aPairThatRanOutOfMemoryOnceIsRerunAloneWithTheSameBudgetAndItsResultIsTheRerunsSuccess() throws Exception {
    MemoryPool pool = new MemoryPool(100 * MIB);
    MemorySource.Lease beside = pool.lease(30 * MIB, () -> false); // another slot's pair, still running
    Evaluation evaluation = new Evaluation(pool, 1);
    CompletableFuture<String> result =
        CompletableFuture.supplyAsync(() -> PairEvaluator.rerunAloneOnOutOfMemory(pool, evaluation, WHAT));
    Thread.sleep(300);
    assertThat(result).isNotDone(); // the rerun waits for the pair beside it to end
    assertThat(evaluation.runs).hasValue(1);
    assertThat(pool.free()).isEqualTo(70 * MIB); // the failed run gave back what it held
    beside.close();
    assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("judged on run 2");
    assertThat(evaluation.budgets).containsExactly(10 * MIB, 10 * MIB); // the same passes: the same result
    assertThat(evaluation.freeWhileRunning).containsExactly(60 * MIB, 0L); // the rerun held the whole pool
    assertThat(pool.free()).isEqualTo(100 * MIB);
  }

  @Test
  void aPairThatRunsOutOfMemoryAloneTooIsAnErrorNamingThePairTheModelTheDeviceAndTheMemory() {
    MemoryPool pool = new MemoryPool(100 * MIB);
    Evaluation evaluation = new Evaluation(pool, 2);
    assertThatThrownBy(() -> PairEvaluator.rerunAloneOnOutOfMemory(pool, evaluation, WHAT))
        .isInstanceOf(PairEvaluationException.class)
        .hasMessageStartingWith("pair 359 (CFI) under sswl-p on gpu:0 ran out of the device's memory twice, the second"
            + " time alone on it: its passes were estimated to need 10 MiB of activations, run under a budget of 10 MiB"
            + " in training passes of 32 graphs and embedding passes of 32; the engine: CUDA out of memory. Tried to"
            + " allocate 40.00 MiB");
    assertThat(evaluation.runs).hasValue(2); // one rerun, no more
    assertThat(pool.free()).isEqualTo(100 * MIB);
  }

  @Test
  void otherErrorsAreNotRerun() {
    MemoryPool pool = new MemoryPool(100 * MIB);
    AtomicInteger runs = new AtomicInteger();
    assertThatThrownBy(() -> PairEvaluator.rerunAloneOnOutOfMemory(pool, memory -> {
      runs.incrementAndGet();
      throw new EngineException("CUDA error: an illegal memory access was encountered");
    }, WHAT)).isInstanceOf(EngineException.class);
    assertThatThrownBy(() -> PairEvaluator.rerunAloneOnOutOfMemory(pool, memory -> {
      runs.incrementAndGet();
      throw new PairEvaluationException("pair 359 (CFI): embeddings are not finite", null);
    }, WHAT)).isInstanceOf(PairEvaluationException.class).hasMessage("pair 359 (CFI): embeddings are not finite");
    assertThat(runs).hasValue(2);
  }

  @Test
  void theEnginesOutOfMemoryErrorIsRecognisedThroughItsWrappers() {
    assertThat(DeviceOutOfMemory.causedBy(new EngineException(OOM))).isTrue();
    assertThat(DeviceOutOfMemory.causedBy(new IllegalStateException("a pass", new EngineException(OOM)))).isTrue();
    assertThat(DeviceOutOfMemory.causedBy(new EngineException("CUDA error: device-side assert triggered"))).isFalse();
    assertThat(DeviceOutOfMemory.causedBy(new IllegalStateException(OOM))).isFalse(); // the engine's, not any text
    assertThat(DeviceOutOfMemory.of(new EngineException(OOM), Long.MAX_VALUE, new MemoryBudget(MIB), 2, 4).getMessage())
        .startsWith("its passes were estimated to need more than any budget");
  }
}
