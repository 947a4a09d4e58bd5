/**
 * The benchmark harnesses behind {@code expresso bench} and {@code expresso bench fleet}: the
 * runtime against raw and relayed Kafka clients on one embedded broker ({@link
 * io.expresso.bench.RuntimeBench}, its paths in {@link io.expresso.bench.BenchPaths}, CPU per
 * pipeline stage from thread names in {@link io.expresso.bench.ThreadCpu}), and long tasks on an
 * elastic fleet of child-JVM workers ({@link io.expresso.bench.FleetBench}, each worker a {@link
 * io.expresso.bench.FleetWorker}, the ideal schedules in {@link io.expresso.bench.FleetSchedule}).
 * Benchmarks, not tests: they measure and report whatever they find. The JMH micro-benchmarks
 * live in {@code src/jmh}.
 */
package io.expresso.bench;
