package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.testing.Integration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/** What {@code doctor --bootstrap} and a starting worker say about a real broker: all there, then a group config gone wrong. */
@Integration
class ClusterCheckTest {

  @Test
  void aPreparedBrokerLacksNothingAndAWrongGroupConfigIsNamedWithItsFix() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.create(broker.clients(), Topics.Creation.singleNode(2, 1));
      List<ClusterCheck.Finding> all = ClusterCheck.run(broker.clients(), ShareGroup.Settings.DEFAULTS);
      assertThat(ClusterCheck.problems(all)).as("findings %s", all).isEmpty();
      assertThat(all).extracting(ClusterCheck.Finding::line).anyMatch(l -> l.startsWith("share groups on"))
          .anyMatch(l -> l.startsWith(ClusterCheck.SHARE_STATE_TOPIC + ": "))
          .anyMatch(l -> l.startsWith(Topics.TASKS + ": 1 partition(s)"))
          .anyMatch(l -> l.equals("group " + ShareGroup.NAME + ": share.renew.acknowledge.enable=true"))
          .anyMatch(l -> l.startsWith(Topics.BROKER_DEAD_LETTERS + ": the brokers write a task they give up on there"))
          .anyMatch(l -> l.equals("group " + ShareGroup.NAME + ": errors.deadletterqueue.topic.name="
              + Topics.BROKER_DEAD_LETTERS));

      try (Admin admin = Admin.create(broker.clients().admin())) {
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, ShareGroup.NAME), List.of(
            new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "latest"), AlterConfigOp.OpType.SET))))
            .all().get(30, TimeUnit.SECONDS);
      }
      List<ClusterCheck.Finding> problems = ClusterCheck.problems(ClusterCheck.run(broker.clients(),
          ShareGroup.Settings.DEFAULTS));
      assertThat(problems).hasSize(1);
      assertThat(problems.get(0).blocking()).isFalse();
      assertThat(problems.get(0).toString()).startsWith("LACKS group expresso-workers: share.auto.offset.reset is latest,"
          + " wanted earliest").contains("kafka-configs.sh --alter --entity-type groups --entity-name expresso-workers"
          + " --add-config share.auto.offset.reset=earliest");
    }
  }
}
