package io.expresso.runtime.actors;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** A slot that cannot join a full share group says why, naming the broker setting, instead of a generic restart. */
class GroupFullTest {

  @Test
  void theBrokersAnswerThatTheGroupIsFullIsKnownWhereverItIsWrapped() {
    GroupMaxSizeReachedException full = new GroupMaxSizeReachedException("The share group has reached its maximum capacity of 200 members.");
    assertThat(TaskLoop.groupFull(full)).isTrue();
    assertThat(TaskLoop.groupFull(new KafkaException("poll failed", full))).isTrue();
    assertThat(TaskLoop.groupFull(new TimeoutException("no answer"))).isFalse();
    assertThat(TaskLoop.GROUP_FULL).contains("group.share.max.size").contains("200").contains("1000");
  }
}
