/**
 * The runtime's core, with neither Kafka clients nor actors in it: the task kinds and their
 * codecs ({@link io.expresso.runtime.TaskKind}), limits and timeouts checked before anything is
 * decoded, failure reasons, the task messages publishers send, the task processor (one task record
 * in, one {@link io.expresso.runtime.Outcome} out), cancellation, devices, build
 * versions, and the evaluators that put the science behind small interfaces.
 *
 * <p>The science packages know nothing of Kafka or actors: the runtime calls them only through
 * {@link io.expresso.runtime.Evaluator} (a task in, a result out), looked up in an {@link
 * io.expresso.runtime.EvaluatorRegistry}. Transport lives in {@link io.expresso.runtime.kafka}
 * (topics, publisher, broker, aggregator); the worker that runs tasks on devices in {@link
 * io.expresso.runtime.actors}.
 */
package io.expresso.runtime;
