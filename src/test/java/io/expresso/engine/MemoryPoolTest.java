package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MemoryPoolTest {

  private static final long MIB = 1L << 20;

  @Test
  void aLeaseIsWhatThePairNeedsAtMostThePoolAtLeastOneMib() {
    MemoryPool pool = new MemoryPool(100 * MIB);
    try (MemorySource.Lease a = pool.lease(10 * MIB, () -> false)) {
      assertThat(a.budget().bytes()).isEqualTo(10 * MIB);
      assertThat(pool.free()).isEqualTo(90 * MIB);
    }
    assertThat(pool.free()).isEqualTo(100 * MIB);
    try (MemorySource.Lease all = pool.lease(Long.MAX_VALUE, () -> false)) { // a GPU's "no limit", or a huge pair
      assertThat(all.budget().bytes()).isEqualTo(100 * MIB);
    }
    MemorySource.Lease tiny = pool.lease(1, () -> false);
    assertThat(tiny.budget().bytes()).isEqualTo(MIB);
    tiny.close();
    tiny.close(); // given back once
    assertThat(pool.free()).isEqualTo(100 * MIB);
    assertThatThrownBy(() -> new MemoryPool(MIB - 1)).hasMessageContaining("at least 1 MiB");
  }

  @Test
  void leasesAreGrantedInTheOrderAskedSoALargeOneIsNotStarved() throws Exception {
    MemoryPool pool = new MemoryPool(100 * MIB);
    MemorySource.Lease first = pool.lease(60 * MIB, () -> false);
    CompletableFuture<MemorySource.Lease> large = CompletableFuture.supplyAsync(() -> pool.lease(60 * MIB, () -> false));
    waitUntilQueued(large);
    // 40 MiB are free, enough for a small lease, but it asked after the large one: it waits too
    CompletableFuture<MemorySource.Lease> small = CompletableFuture.supplyAsync(() -> pool.lease(10 * MIB, () -> false));
    assertThatThrownBy(() -> small.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
    assertThat(large).isNotDone();
    first.close();
    MemorySource.Lease l = large.get(5, TimeUnit.SECONDS);
    MemorySource.Lease s = small.get(5, TimeUnit.SECONDS); // 60 + 10 fit at once
    assertThat(pool.free()).isEqualTo(30 * MIB);
    l.close();
    s.close();
    assertThat(pool.free()).isEqualTo(100 * MIB);
  }

  @Test
  void aLeaseCancelledWhileWaitingTakesNothingAndHoldsNoOneBack() throws Exception {
    MemoryPool pool = new MemoryPool(10 * MIB);
    MemorySource.Lease held = pool.lease(10 * MIB, () -> false);
    AtomicBoolean cancel = new AtomicBoolean();
    CompletableFuture<MemorySource.Lease> waiting = CompletableFuture.supplyAsync(() -> pool.lease(5 * MIB, cancel::get));
    waitUntilQueued(waiting);
    CompletableFuture<MemorySource.Lease> after = CompletableFuture.supplyAsync(() -> pool.lease(5 * MIB, () -> false));
    cancel.set(true);
    assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(CancellationException.class)
        .hasMessageContaining("cancelled while waiting for 5 MiB of the 10 MiB memory pool");
    held.close();
    after.get(5, TimeUnit.SECONDS).close(); // the cancelled lease left the queue
    assertThat(pool.free()).isEqualTo(10 * MIB);
  }

  @Test
  void aFixedSourceGivesEveryEvaluationTheSameBudget() {
    MemoryBudget b = MemoryBudget.parse("1g");
    try (MemorySource.Lease l = MemorySource.fixed(b).lease(64L << 30, () -> false)) {
      assertThat(l.budget()).isEqualTo(b);
    }
  }

  /** Gives the lease on another thread time to join the queue (it cannot be granted, so it does not end). */
  private static void waitUntilQueued(CompletableFuture<?> lease) throws InterruptedException {
    Thread.sleep(200);
    assertThat(lease).isNotDone();
  }
}
