package io.expresso.runtime.kafka;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.ShareGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;

/**
 * A share-group assignor (a broker plugin, {@code group.share.assignors}) that gives every member
 * every partition it subscribes to. Kafka's own {@code SimpleAssignor} balances partitions over
 * members (each partition gets ceil(members / partitions) of them), so a member serves about one
 * partition and an idle worker cannot take a task waiting in another's partition: balance by
 * partitions again. With every member on every partition, a device slot that asks for a task gets
 * the next one wherever it waits. Fetch load grows with members × partitions, which is small for a
 * fleet of GPU workers; the embedded broker uses this assignor, a real cluster where the plugin is
 * installed (docs/runtime.md).
 */
public final class EveryMemberAssignor implements ShareGroupPartitionAssignor {

  public static final String NAME = "expresso-every-member";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public GroupAssignment assign(GroupSpec group, SubscribedTopicDescriber topics) {
    Map<String, MemberAssignment> members = new HashMap<>();
    for (String member : group.memberIds()) {
      Map<Uuid, Set<Integer>> partitions = new HashMap<>();
      for (Uuid topic : group.memberSubscription(member).subscribedTopicIds()) {
        Set<Integer> ps = new HashSet<>();
        for (int p = 0; p < topics.numPartitions(topic); p++) {
          if (group.isPartitionAssignable(topic, p)) {
            ps.add(p);
          }
        }
        if (!ps.isEmpty()) {
          partitions.put(topic, ps);
        }
      }
      members.put(member, () -> partitions);
    }
    return new GroupAssignment(members);
  }
}
