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

  @Override
  void close();
}
