package io.expresso.robust;

import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a phase of jobs and returns their outcomes in job order: in this process
 * ({@link LocalExecutor}) or as tasks through Kafka on the workers.
 */
public interface StudyExecutor extends AutoCloseable {

  List<TrainOutcome> train(List<TrainJob> jobs, Consumer<TrainOutcome> done);

  List<AttackOutcome> attack(List<AttackJob> jobs, Consumer<AttackOutcome> done);

  /**
   * Whether {@link #train} and {@link #attack} may be called from several threads at once, so that a
   * phase starts while another still runs (true where the jobs run elsewhere, as tasks on workers).
   */
  default boolean overlapsPhases() {
    return false;
  }

  @Override
  void close();
}
