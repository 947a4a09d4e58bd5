package io.expresso.metrics;

import io.expresso.runtime.kafka.KafkaClients;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures a share group's backlog per topic every few seconds with the Kafka admin API: the
 * broker's lag of each share partition (records from its start offset on that are not yet
 * acknowledged: waiting or running), or, where the broker gives none, end offset minus start
 * offset; a partition the group has not started on counts from the log's start. Reported to {@link
 * TaskMeters#lag}; deploy/'s KEDA scales the workers on it.
 */
public final class LagMonitor implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LagMonitor.class);

  private final Admin admin;
  private final String group;
  private final List<String> topics;
  private final TaskMeters meters;
  private final ScheduledExecutorService timer;

  private LagMonitor(KafkaClients clients, String group, List<String> topics, TaskMeters meters) {
    Properties p = clients.admin();
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "expresso-lag-monitor");
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
    this.admin = Admin.create(p);
    this.group = group;
    this.topics = List.copyOf(topics);
    this.meters = meters;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "expresso-lag-monitor");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts measuring every {@code every}; failures (broker away) are logged and retried. */
  public static LagMonitor start(KafkaClients clients, String group, List<String> topics,
      TaskMeters meters, Duration every) {
    LagMonitor m = new LagMonitor(clients, group, topics, meters);
    m.timer.scheduleWithFixedDelay(m::measureQuietly, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    return m;
  }

  private void measureQuietly() {
    try {
      measure();
    } catch (Exception e) {
      LOG.debug("share group backlog not measured: {}", e.toString());
    }
  }

  /** One measurement; returns lag per topic (topics that do not exist yet are left out). */
  public Map<String, Long> measure() throws Exception {
    List<String> existing = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
        .filter(topics::contains).toList();
    if (existing.isEmpty()) {
      return Map.of();
    }
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
    for (TopicDescription d : admin.describeTopics(existing).allTopicNames().get(10, TimeUnit.SECONDS).values()) {
      d.partitions().forEach(p -> {
        TopicPartition tp = new TopicPartition(d.name(), p.partition());
        latest.put(tp, OffsetSpec.latest());
        earliest.put(tp, OffsetSpec.earliest());
      });
    }
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
        admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts =
        admin.listOffsets(earliest).all().get(10, TimeUnit.SECONDS);
    Map<TopicPartition, SharePartitionOffsetInfo> share = admin.listShareGroupOffsets(Map.of(group,
        new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(group).get(10, TimeUnit.SECONDS);
    Map<String, Long> lag = new HashMap<>();
    for (String t : existing) {
      lag.put(t, 0L);
    }
    ends.forEach((tp, end) -> {
      SharePartitionOffsetInfo s = share.get(tp);
      long records;
      if (s == null) {
        records = end.offset() - starts.get(tp).offset();
      } else {
        records = s.lag().orElse(end.offset() - s.startOffset());
      }
      lag.merge(tp.topic(), Math.max(0, records), Long::sum);
    });
    lag.forEach((topic, records) -> meters.lag(group, topic, records));
    return lag;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    admin.close(Duration.ofSeconds(2));
  }
}
