/**
 * The worker (Pekko typed): a {@link io.expresso.runtime.actors.Worker} is an actor system with a
 * device pool (one actor per device, tasks dealt out by a running cost model), fed by a task loop
 * of share consumers (one per device slot) in the workers' share group: a slot acquires tasks
 * only while it holds none (one long task, or about a second's worth of tiny ones), renews their
 * locks while they run, produces their results and then acknowledges them. Time limits and stops reach a running task as its {@link io.expresso.runtime.Cancellation};
 * the broker's delivery count marks a task that keeps killing workers as poison.
 */
package io.expresso.runtime.actors;
