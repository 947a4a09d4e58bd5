package io.expresso.robust;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs jobs one after another on this thread and one device, with an in-memory model store. */
public final class LocalExecutor implements StudyExecutor {

  private final JobRunner runner;

  public LocalExecutor(String device) {
    this.runner = new JobRunner(ModelStore.inMemory(), device);
  }

  @Override
  public List<TrainOutcome> train(List<TrainJob> jobs, Consumer<TrainOutcome> done) {
    List<TrainOutcome> out = new ArrayList<>();
    for (TrainJob j : jobs) {
      TrainOutcome o = runner.train(j);
      done.accept(o);
      out.add(o);
    }
    return out;
  }

  @Override
  public List<AttackOutcome> attack(List<AttackJob> jobs, Consumer<AttackOutcome> done) {
    List<AttackOutcome> out = new ArrayList<>();
    for (AttackJob j : jobs) {
      AttackOutcome o = runner.attack(j);
      done.accept(o);
      out.add(o);
    }
    return out;
  }

  @Override
  public void close() {
    runner.close();
  }
}
