/**
 * The robustness study on the fleet: its jobs as task messages ({@link
 * io.expresso.robust.fleet.StudyTasks}), the executor that publishes them and gathers their
 * results ({@link io.expresso.robust.fleet.KafkaExecutor}), the workers' evaluators for train and
 * attack tasks, the model store on {@code expresso.models}, and each epoch's progress. It sits
 * above {@code runtime/}, so the study itself ({@code robust/}) never sees Kafka.
 */
package io.expresso.robust.fleet;
