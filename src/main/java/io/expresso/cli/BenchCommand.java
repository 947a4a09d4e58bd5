package io.expresso.cli;

import io.expresso.bench.RuntimeBench;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.actors.Worker;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso bench}: throughput and latency of the runtime on no-op synthetic tasks (broker
 * → worker → results, through the share group), beside the raw producer → consumer rate and an exactly-once
 * relay of plain clients on the same embedded broker in the same run. A benchmark, not a test: it
 * measures and prints, including where the CPU went. The harness is {@link RuntimeBench}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = BenchFleetCommand.class,
    description = "Benchmark the runtime: no-op synthetic tasks through an embedded broker, a worker and"
        + " the aggregator (tasks/s, p50/p99 end-to-end latency, CPU per task by stage) beside the raw"
        + " producer->consumer rate and an exactly-once relay of plain Kafka clients, on the same broker in"
        + " the same run. 'bench fleet': long tasks while workers join and leave.")
final class BenchCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--count", paramLabel = "N", description = "tasks per measured run (default: ${DEFAULT-VALUE})")
  int count = 100_000;

  @Option(names = "--partitions", paramLabel = "N", description = "partitions per topic (default: ${DEFAULT-VALUE})")
  int partitions = 8;

  @Option(names = "--devices", paramLabel = "D", description = "worker devices (default: ${DEFAULT-VALUE})")
  String devices = "cpu:2";

  @Option(names = "--workers", paramLabel = "N", description = "worker instances in the group, each with the"
      + " --devices (default: ${DEFAULT-VALUE}); more than one only pays where there are idle cores")
  int workers = 1;

  @Option(names = "--commit-interval-ms", paramLabel = "MS", description = "transaction commit interval of the"
      + " exactly-once relay (default: ${DEFAULT-VALUE})")
  int commitIntervalMs = 100;

  @Option(names = "--acquire", paramLabel = "N", description = "tasks each of the worker's device slots acquires per"
      + " poll, fixed (worker --acquire) (default: adaptive, as the worker: no-op tasks travel a thousand to a round trip)")
  Integer acquire;

  @Option(names = "--rounds", paramLabel = "R", description = "rounds of raw, relay and runtime in turn; medians are"
      + " reported (default: ${DEFAULT-VALUE})")
  int rounds = 5;

  @Option(names = "--warmup", paramLabel = "N", description = "unmeasured tasks through each path first, so JIT"
      + " compilation and connection set-up stay out of the measured rounds (default: ${DEFAULT-VALUE})")
  int warmup = 200_000;

  @Option(names = "--rate", paramLabel = "TASKS_PER_S", description = "publish at this rate instead of as fast as"
      + " possible, to measure latency below saturation; the rates then only show whether each path kept up"
      + " (default: ${DEFAULT-VALUE}, unpaced)")
  int rate = 0;

  @Option(names = "--json", description = "print one JSON object instead of tables")
  boolean json;

  @Option(names = "--share-floor", description = "also measure the share-group floor each round: plain share"
      + " consumers (one per device slot) acquiring as the worker does and acknowledging every task, nothing run or"
      + " produced: what Kafka's share group alone costs beside the raw path")
  boolean shareFloor;

  @Override
  public Integer call() throws Exception {
    UsageChecks.range(spec, "--rounds", rounds, 1, 20);
    UsageChecks.range(spec, "--count", count, 100, 10_000_000);
    UsageChecks.range(spec, "--warmup", warmup, 100, 10_000_000);
    UsageChecks.range(spec, "--partitions", partitions, 1, 1024);
    UsageChecks.range(spec, "--commit-interval-ms", commitIntervalMs, 1, 60_000);
    UsageChecks.range(spec, "--rate", rate, 0, 100_000_000);
    UsageChecks.range(spec, "--workers", workers, 1, 16);
    if (acquire != null) {
      UsageChecks.range(spec, "--acquire", acquire, 1, 10_000);
    }
    List<DeviceSlot> ds = UsageChecks.devices(spec, devices);
    new RuntimeBench(new RuntimeBench.Settings(count, partitions, ds, workers, commitIntervalMs,
        acquire == null ? Worker.Settings.ADAPTIVE : acquire, rounds, warmup, rate,
        json, shareFloor)).run(spec.commandLine().getOut());
    return 0;
  }
}
