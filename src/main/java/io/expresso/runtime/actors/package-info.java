/**
 * The worker (Pekko typed): a {@link io.expresso.runtime.actors.Worker} is an actor system with a
 * device pool (one actor per device, tasks dealt out by partition and by a running cost model),
 * fed by a task loop in the workers' consumer group that commits each task's result and its
 * offset in one Kafka transaction. Time limits, partition hand-overs and stops reach a running
 * task as its {@link io.expresso.runtime.Cancellation}; every start is counted in {@link
 * io.expresso.runtime.Attempts} before it runs.
 */
package io.expresso.runtime.actors;
