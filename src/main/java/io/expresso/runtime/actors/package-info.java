/**
 * The worker (Pekko typed): a {@link io.expresso.runtime.actors.Worker} is an actor system with a
 * device pool (one actor per device, tasks dealt out by a running cost model), fed by a task loop
 * of share consumers (one per device slot) in the workers' share group: a slot acquires a task
 * only while it is free, renews its lock while it runs, produces its result and then acknowledges
 * it. Time limits and stops reach a running task as its {@link io.expresso.runtime.Cancellation};
 * the broker's delivery count marks a task that keeps killing workers as poison.
 */
package io.expresso.runtime.actors;
