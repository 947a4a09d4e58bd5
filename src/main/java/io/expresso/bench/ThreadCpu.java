package io.expresso.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * CPU time of this process's threads, grouped into the stages of the pipeline by thread name, so
 * a benchmark can say where the CPU of a run went. Everything (broker, clients, worker) runs in
 * one JVM in {@code expresso bench}, so the thread names are the only way to tell stages apart.
 */
final class ThreadCpu {

  /** Stage name → thread-name pattern; the first match wins, unmatched threads count as "other". */
  private static final Map<String, Pattern> STAGES = new LinkedHashMap<>();

  static {
    STAGES.put("publisher", Pattern.compile("bench-publisher|kafka-producer-network-thread \\| producer-\\d+"));
    STAGES.put("broker", Pattern.compile("data-plane-.*|kafka-\\d+-.*|quorum-.*|broker-.*|ExpirationReaper-.*|"
        + "executor-.*|AddPartitionsToTxn.*|LogDirFailureHandler|transaction-log-manager-.*|group-coordinator.*|"
        + "controller-.*|kafka-scheduler-.*|raft-.*|.*-reaper.*|TxnMarkerSenderThread-.*|share-.*|"
        + "kafka-log-cleaner-thread-.*|kafka-request-handler-.*|metrics-meter-tick-thread-.*"));
    // the relay's loop plays the worker's source + stream part (the task loop and its share
    // consumers' network threads, or the Pekko stream of earlier builds), its producer the worker producer's
    STAGES.put("worker source + stream", Pattern.compile("expresso-tasks-.*|expresso-worker-pekko\\.(kafka|actor)\\..*|"
        + "bench-relay|bench-share-floor-.*|kafka-coordinator-heartbeat-thread \\| expresso-workers|consumer_background_thread.*"));
    STAGES.put("worker devices", Pattern.compile("expresso-worker-expresso\\.dispatchers\\..*"));
    STAGES.put("worker producer", Pattern.compile("kafka-producer-network-thread \\| (producer-expresso-.*|.*-results)"));
    STAGES.put("end consumer", Pattern.compile("expresso-aggregator|bench-end-consumer"));
  }

  private final Map<Long, Long> startNanos = new HashMap<>();
  private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

  /** Starts counting from now. */
  ThreadCpu() {
    for (long id : mx.getAllThreadIds()) {
      long t = mx.getThreadCpuTime(id);
      if (t >= 0) {
        startNanos.put(id, t);
      }
    }
  }

  /** CPU seconds per stage since construction, stages in pipeline order, "other" last. */
  Map<String, Double> secondsByStage() {
    Map<Long, Long> now = new HashMap<>();
    Map<Long, String> names = new HashMap<>();
    for (long id : mx.getAllThreadIds()) {
      long t = mx.getThreadCpuTime(id);
      ThreadInfo info = mx.getThreadInfo(id);
      if (t < 0 || info == null) {
        continue; // the thread ended in between
      }
      now.put(id, t);
      names.put(id, info.getThreadName());
    }
    return byStage(startNanos, now, names);
  }

  /**
   * The accounting itself, apart from the JVM's clocks: per stage, the CPU nanoseconds each thread
   * used between {@code start} and {@code now} (a thread born since starts at 0), in seconds.
   */
  static Map<String, Double> byStage(Map<Long, Long> start, Map<Long, Long> now, Map<Long, String> names) {
    Map<String, Double> out = new LinkedHashMap<>();
    STAGES.keySet().forEach(k -> out.put(k, 0.0));
    out.put("other", 0.0);
    now.forEach((id, t) -> out.merge(stageOf(names.get(id)), (t - start.getOrDefault(id, 0L)) / 1e9, Double::sum));
    return out;
  }

  static String stageOf(String threadName) {
    for (Map.Entry<String, Pattern> e : STAGES.entrySet()) {
      if (e.getValue().matcher(threadName).matches()) {
        return e.getKey();
      }
    }
    return "other";
  }
}
