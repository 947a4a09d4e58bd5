#!/bin/sh
# A single-node Apache Kafka (KRaft: broker and controller in one process) from the Expresso jar,
# which carries Kafka's server at the project's version: Kafka's own main class kafka.Kafka, as
# kafka-server-start.sh runs it, with stock settings apart from these:
#   - listeners on KAFKA_HOST (127.0.0.1: the compose file's containers share the host's network)
#   - one node: the offsets, transaction and share-group state topics with replication 1, min ISR 1
#     (their defaults are 3 and 2; the share-state topic's would leave share groups without any task)
# The data directory (KAFKA_DATA) is formatted on first start, as kafka-storage.sh format would.
# Environment: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), KAFKA_HOST, KAFKA_DATA
# (/var/lib/kafka), KAFKA_NUM_PARTITIONS (default partitions of topics a client creates without
# saying, 1), KAFKA_HEAP_OPTS (-Xmx1g -Xms1g), KAFKA_EXTRA_PROPERTIES (more server.properties lines).
set -eu
jar=${EXPRESSO_JAR:-/app/expresso.jar}
host=${KAFKA_HOST:-127.0.0.1}
port=${KAFKA_PORT:-9092}
controller=${KAFKA_CONTROLLER_PORT:-9093}
data=${KAFKA_DATA:-/var/lib/kafka}
config=${TMPDIR:-/tmp}/kafka-server.properties

cat > "$config" <<PROPERTIES
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$host:$controller
listeners=PLAINTEXT://$host:$port,CONTROLLER://$host:$controller
advertised.listeners=PLAINTEXT://$host:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data/logs
num.partitions=${KAFKA_NUM_PARTITIONS:-1}
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
${KAFKA_EXTRA_PROPERTIES:-}
PROPERTIES

if [ ! -f "$data/logs/meta.properties" ]; then
  mkdir -p "$data/logs"
  # what `kafka-storage.sh format --standalone` does: a fresh cluster id, the latest production features
  java -cp "$jar" kafka.tools.StorageTool format --config "$config" \
    --cluster-id "$(java -cp "$jar" kafka.tools.StorageTool random-uuid)" --ignore-formatted
fi
# shellcheck disable=SC2086
exec java ${KAFKA_HEAP_OPTS:--Xmx1g -Xms1g} -Dorg.slf4j.simpleLogger.log.kafka.server.KafkaRaftServer=info -cp "$jar" kafka.Kafka "$config"
