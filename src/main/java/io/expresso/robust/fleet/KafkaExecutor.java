package io.expresso.robust.fleet;

import io.expresso.robust.StudyExecutor;
import io.expresso.robust.TrainOutcome;
import io.expresso.robust.AttackJob;
import io.expresso.robust.AttackOutcome;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.RobustProtos;
import io.expresso.robust.TrainJob;
import com.google.protobuf.Message;
import io.expresso.proto.v1.Result;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ResultMerge;
import io.expresso.runtime.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the study's phases as tasks through Kafka: publishes one train or attack task per job
 * (key = task id), then collects the results of the experiment from {@code expresso.results}
 * (de-duplicated by task id) until every job of the phase has answered. An error result fails the
 * phase with the worker's reason; nothing is silently dropped.
 *
 * <p>Running an experiment id again resumes it, as {@code expresso publish} does: a job whose
 * task already succeeded is not published again and its stored result is used; a job whose task
 * failed is published again and waited for, its old error ignored.
 */
public final class KafkaExecutor implements StudyExecutor {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaExecutor.class);

  private final String experimentId;
  private final Publisher publisher;
  private final Aggregator aggregator;
  private final Duration phaseTimeout;

  /** An executor on the plaintext cluster at {@code bootstrap} (the embedded broker, tests). */
  public KafkaExecutor(String bootstrap, String experimentId, Duration phaseTimeout) {
    this(KafkaClients.of(bootstrap), experimentId, phaseTimeout);
  }

  public KafkaExecutor(KafkaClients clients, String experimentId, Duration phaseTimeout) {
    this.experimentId = experimentId;
    this.publisher = new Publisher(clients);
    this.aggregator = new Aggregator(clients, experimentId).start();
    this.phaseTimeout = phaseTimeout;
  }

  @Override
  public List<TrainOutcome> train(List<TrainJob> jobs, Consumer<TrainOutcome> done) {
    List<String> ids = new ArrayList<>();
    Map<String, Message> tasks = new LinkedHashMap<>();
    for (TrainJob j : jobs) {
      ids.add(StudyJobs.taskId(j));
      tasks.put(StudyJobs.taskId(j), StudyTasks.trainTask(experimentId, j));
    }
    Map<String, Result> staleErrors = publishUnfinished(TaskKind.TRAIN, tasks);
    return collect(ids, staleErrors,
        r -> RobustProtos.outcome(r.getTrain()), done);
  }

  /** Phases may overlap: each call publishes its own tasks and waits for their results. */
  @Override
  public boolean overlapsPhases() {
    return true;
  }

  @Override
  public List<AttackOutcome> attack(List<AttackJob> jobs, Consumer<AttackOutcome> done) {
    List<String> ids = new ArrayList<>();
    Map<String, Message> tasks = new LinkedHashMap<>();
    for (AttackJob j : jobs) {
      ids.add(StudyJobs.taskId(j));
      tasks.put(StudyJobs.taskId(j), StudyTasks.attackTask(experimentId, j));
    }
    Map<String, Result> staleErrors = publishUnfinished(TaskKind.ATTACK, tasks);
    return collect(ids, staleErrors,
        r -> RobustProtos.outcome(r.getAttack()), done);
  }

  /**
   * Publishes the tasks without a successful result in the experiment so far; returns the error
   * results those tasks had before (by task id), which their new results will replace.
   */
  private Map<String, Result> publishUnfinished(TaskKind kind, Map<String, Message> tasks) {
    try {
      if (!aggregator.awaitCaughtUp(phaseTimeout)) {
        throw new IllegalStateException("could not read " + Topics.RESULTS + " to its end within "
            + phaseTimeout.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + Topics.RESULTS, e);
    }
    Map<String, Result> staleErrors = new HashMap<>();
    int skipped = 0;
    for (Map.Entry<String, Message> t : tasks.entrySet()) {
      Result before = aggregator.result(t.getKey()).orElse(null);
      if (before != null && ResultMerge.succeeded(before)) {
        skipped++;
        continue;
      }
      if (before != null) {
        staleErrors.put(t.getKey(), before);
      }
      publisher.send(t.getKey(), t.getValue());
    }
    publisher.flush();
    if (skipped > 0) {
      LOG.info("{}: {} of {} {} tasks already succeeded; not published again", experimentId, skipped, tasks.size(),
          kind.name().toLowerCase(Locale.ROOT));
    }
    return staleErrors;
  }

  private <T> List<T> collect(List<String> ids, Map<String, Result> staleErrors, Function<Result, T> decode,
      Consumer<T> done) {
    Set<String> waiting = new LinkedHashSet<>(ids);
    Map<String, T> got = new HashMap<>();
    long deadline = System.nanoTime() + phaseTimeout.toNanos();
    while (!waiting.isEmpty()) {
      for (String id : List.copyOf(waiting)) {
        Result r = aggregator.result(id).orElse(null);
        if (r == null || r.equals(staleErrors.get(id))) {
          continue; // no answer yet to the task as published now
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
