/**
 * The streaming runtime: protobuf tasks on Kafka, an embedded KRaft broker, Pekko workers pinned
 * to devices, exactly-once results (transactional consume-transform-produce), dead letters, the
 * publisher and the idempotent result aggregator.
 *
 * <p>The science packages know nothing of Kafka or actors: the runtime calls them only through
 * {@link io.expresso.runtime.Evaluator} (a task in, a result out), looked up in an {@link
 * io.expresso.runtime.EvaluatorRegistry}. Consumers of the result stream hook in through {@link
 * io.expresso.runtime.ResultListener} on the {@link io.expresso.runtime.Aggregator}.
 */
package io.expresso.runtime;
