/**
 * The runtime's Kafka side: the topic names and their creation ({@link
 * io.expresso.runtime.kafka.Topics}), client configuration from flags, files and the environment
 * ({@link io.expresso.runtime.kafka.KafkaClients}), the task {@link
 * io.expresso.runtime.kafka.Publisher}, the embedded KRaft broker, and the idempotent result
 * {@link io.expresso.runtime.kafka.Aggregator}, which applies {@link
 * io.expresso.runtime.kafka.ResultMerge} and hands each result to its {@link
 * io.expresso.runtime.kafka.ResultListener}s (metrics, live page, report files): the one place
 * readers count a task once, whatever the number of its result records. Long-lived readers remember
 * task ids in a bounded {@link io.expresso.runtime.kafka.TaskIdWindow}.
 */
package io.expresso.runtime.kafka;
