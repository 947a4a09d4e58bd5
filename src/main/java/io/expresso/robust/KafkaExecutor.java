package io.expresso.robust;

import io.expresso.proto.v1.Result;
import io.expresso.runtime.Aggregator;
import io.expresso.runtime.Publisher;
import io.expresso.runtime.TaskKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs the study's phases as tasks through Kafka: publishes one train or attack task per job
 * (key = task id), then collects the results of the experiment from {@code expresso.results}
 * (de-duplicated by task id) until every job of the phase has answered. An error result fails the
 * phase with the worker's reason; nothing is silently dropped.
 */
public final class KafkaExecutor implements StudyExecutor {

  private final String experimentId;
  private final Publisher publisher;
  private final Aggregator aggregator;
  private final Duration phaseTimeout;

  public KafkaExecutor(String bootstrap, String experimentId, Duration phaseTimeout) {
    this.experimentId = experimentId;
    this.publisher = new Publisher(bootstrap);
    this.aggregator = new Aggregator(bootstrap, experimentId).start();
    this.phaseTimeout = phaseTimeout;
  }

  @Override
  public List<TrainOutcome> train(List<TrainJob> jobs, Consumer<TrainOutcome> done) {
    List<String> ids = new ArrayList<>();
    for (TrainJob j : jobs) {
      String id = StudyJobs.taskId(j);
      ids.add(id);
      publisher.send(TaskKind.TRAIN, id, StudyJobs.trainTask(experimentId, j));
    }
    publisher.flush();
    return collect(ids, r -> RobustJson.read(r.getTrain().getRobustOutcome(), TrainOutcome.class), done);
  }

  @Override
  public List<AttackOutcome> attack(List<AttackJob> jobs, Consumer<AttackOutcome> done) {
    List<String> ids = new ArrayList<>();
    for (AttackJob j : jobs) {
      String id = StudyJobs.taskId(j);
      ids.add(id);
      publisher.send(TaskKind.ATTACK, id, StudyJobs.attackTask(experimentId, j));
    }
    publisher.flush();
    return collect(ids, r -> RobustJson.read(r.getAttack().getRobustOutcome(), AttackOutcome.class), done);
  }

  private <T> List<T> collect(List<String> ids, Function<Result, T> decode, Consumer<T> done) {
    Set<String> waiting = new LinkedHashSet<>(ids);
    Map<String, T> got = new HashMap<>();
    long deadline = System.nanoTime() + phaseTimeout.toNanos();
    while (!waiting.isEmpty()) {
      for (String id : List.copyOf(waiting)) {
        Result r = aggregator.result(id).orElse(null);
        if (r == null) {
          continue;
        }
        if (r.hasError() && !r.getError().getReason().isEmpty()) {
          throw new IllegalStateException("task " + r.getTaskId() + " failed on "
              + r.getProvenance().getWorkerId() + ": " + r.getError().getReason() + ": " + r.getError().getMessage());
        }
        T t = decode.apply(r);
        got.put(r.getTaskId(), t);
        waiting.remove(r.getTaskId());
        done.accept(t);
      }
      if (waiting.isEmpty()) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(waiting.size() + " of " + ids.size() + " tasks unanswered after "
            + phaseTimeout.toSeconds() + " s (first: " + waiting.iterator().next() + "); are workers running?");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for results", e);
      }
    }
    List<T> out = new ArrayList<>();
    for (String id : ids) {
      out.add(got.get(id));
    }
    return out;
  }

  @Override
  public void close() {
    publisher.close();
    aggregator.close();
  }
}
