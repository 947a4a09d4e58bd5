package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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

  @Test
  void theSlotsOfOneGpuShareItsPoolTwoGpusHaveTwoAndTheCpuItsOwn() {
    AtomicInteger sized = new AtomicInteger();
    MemoryPool.ByDevice pools = new MemoryPool.ByDevice(d -> {
      sized.incrementAndGet();
      return (d.isGpu() ? 100 + d.getDeviceId() : 50) * MIB;
    });
    // every slot of GPU 0 (gpu:0/0, gpu:0/1, ...) runs on DJL's gpu(0) (DeviceSlotTest)
    MemorySource slot0 = pools.source(Device.gpu(0), null);
    MemorySource slot1 = pools.source(Device.gpu(0), null);
    assertThat(slot0).isSameAs(slot1).isSameAs(pools.of(Device.gpu(0)));
    try (MemorySource.Lease a = slot0.lease(60 * MIB, () -> false);
        MemorySource.Lease b = slot1.lease(30 * MIB, () -> false)) {
      assertThat(a.budget().bytes() + b.budget().bytes()).isEqualTo(90 * MIB);
      assertThat(pools.of(Device.gpu(0)).free()).isEqualTo(10 * MIB); // one pool: what one slot holds, the other cannot
      assertThat(pools.of(Device.gpu(1)).free()).isEqualTo(101 * MIB); // another GPU, another pool
      assertThat(pools.of(Device.cpu()).free()).isEqualTo(50 * MIB); // the CPU devices' pool, untouched
    }
    assertThat(pools.of(Device.gpu(1))).isNotSameAs(pools.of(Device.gpu(0))).isNotSameAs(pools.of(Device.cpu()));
    assertThat(sized).hasValue(3); // each device sized once, on first use
    assertThat(MemoryPool.cpu()).isSameAs(MemoryPool.of(Device.cpu())); // the process's CPU pool, as before
  }

  @Test
  void aGivenBudgetIsEveryEvaluationsOwnAndTakesNothingFromThePool() {
    MemoryPool.ByDevice pools = new MemoryPool.ByDevice(d -> 100 * MIB);
    MemoryBudget given = MemoryBudget.parse("1g");
    try (MemorySource.Lease l = pools.source(Device.gpu(0), given).lease(64L << 30, () -> false);
        MemorySource.Lease m = pools.source(Device.gpu(0), given).lease(MIB, () -> false)) {
      assertThat(l.budget()).isEqualTo(given);
      assertThat(m.budget()).isEqualTo(given);
      assertThat(pools.of(Device.gpu(0)).free()).isEqualTo(100 * MIB);
    }
  }

  @Test
  void aLeaseAloneWaitsForEveryOtherLeaseKeepsTheBudgetAndHoldsOffLaterOnes() throws Exception {
    MemoryPool pool = new MemoryPool(100 * MIB);
    MemorySource.Lease pooled = pool.lease(30 * MIB, () -> false);
    MemorySource.Lease fixed = pool.fixed(MemoryBudget.parse("1g")).lease(MIB, () -> false);
    CompletableFuture<MemorySource.Lease> alone = CompletableFuture.supplyAsync(() -> pool.leaseAlone(10 * MIB, () -> false));
    waitUntilQueued(alone);
    pooled.close();
    waitUntilQueued(alone); // 100 MiB free, but an evaluation of a given budget still runs on the device
    fixed.close();
    MemorySource.Lease a = alone.get(5, TimeUnit.SECONDS);
    assertThat(a.budget().bytes()).isEqualTo(10 * MIB); // what lease(10 MiB) gives: the same passes
    assertThat(pool.free()).isZero();
    CompletableFuture<MemorySource.Lease> later = CompletableFuture.supplyAsync(() -> pool.lease(MIB, () -> false));
    CompletableFuture<MemorySource.Lease> laterFixed =
        CompletableFuture.supplyAsync(() -> pool.fixed(MemoryBudget.parse("1g")).lease(MIB, () -> false));
    waitUntilQueued(later);
    waitUntilQueued(laterFixed);
    a.close();
    later.get(5, TimeUnit.SECONDS).close();
    laterFixed.get(5, TimeUnit.SECONDS).close();
    assertThat(pool.free()).isEqualTo(100 * MIB);
    // through alone(): every lease is a lease alone; a source shared with no one has no one to wait for
    try (MemorySource.Lease b = pool.alone().lease(Long.MAX_VALUE, () -> false)) {
      assertThat(b.budget().bytes()).isEqualTo(100 * MIB);
    }
    try (MemorySource.Lease c = MemorySource.fixed(MemoryBudget.parse("1g")).alone().lease(MIB, () -> false)) {
      assertThat(c.budget()).isEqualTo(MemoryBudget.parse("1g"));
    }
  }

  @Test
  void aLeaseAloneCancelledWhileWaitingTakesNothing() throws Exception {
    MemoryPool pool = new MemoryPool(10 * MIB);
    MemorySource.Lease held = pool.lease(MIB, () -> false);
    AtomicBoolean cancel = new AtomicBoolean();
    CompletableFuture<MemorySource.Lease> alone = CompletableFuture.supplyAsync(() -> pool.leaseAlone(MIB, cancel::get));
    waitUntilQueued(alone);
    cancel.set(true);
    assertThatThrownBy(() -> alone.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(CancellationException.class)
        .hasMessageContaining("cancelled while waiting for all of the 10 MiB memory pool");
    held.close();
    pool.lease(10 * MIB, () -> false).close();
    assertThat(pool.free()).isEqualTo(10 * MIB);
  }

  /** Gives the lease on another thread time to join the queue (it cannot be granted, so it does not end). */
  private static void waitUntilQueued(CompletableFuture<?> lease) throws InterruptedException {
    Thread.sleep(200);
    assertThat(lease).isNotDone();
  }
}
