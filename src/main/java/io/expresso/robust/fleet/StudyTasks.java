package io.expresso.robust.fleet;

import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.TrainTask;
import io.expresso.robust.AttackJob;
import io.expresso.robust.RobustProtos;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import io.expresso.runtime.TaskMessages;

/** The robustness study's jobs as task messages, for the fleet (the experiment's executor and {@code publish train|attack}). */
public final class StudyTasks {

  private StudyTasks() {}

  /** The train task of a job: its header and the job. */
  public static TrainTask trainTask(String experimentId, TrainJob j) {
    return TrainTask.newBuilder().setHeader(TaskMessages.header(experimentId, StudyJobs.taskId(j), System.currentTimeMillis()))
        .setJob(RobustProtos.message(j)).build();
  }

  /** The attack task of a job: its header and the job. */
  public static AttackTask attackTask(String experimentId, AttackJob j) {
    return AttackTask.newBuilder().setHeader(TaskMessages.header(experimentId, StudyJobs.taskId(j), System.currentTimeMillis()))
        .setJob(RobustProtos.message(j)).build();
  }
}
