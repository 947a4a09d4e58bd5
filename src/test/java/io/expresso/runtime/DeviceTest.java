package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeviceTest {

  @Test
  void parsesTheDeviceForms() {
    assertThat(Device.parse("cpu:3")).extracting(Device::id).containsExactly("cpu:0", "cpu:1", "cpu:2");
    assertThat(Device.parse("gpu:0,gpu:1")).extracting(Device::id).containsExactly("gpu:0", "gpu:1");
    assertThat(Device.parse("auto", () -> 0)).isNotEmpty().allMatch(d -> d.type().equals("cpu"));
    assertThat(Device.parse("auto", () -> 2)).containsExactly(new Device("gpu", 0), new Device("gpu", 1));
    // this machine: whatever the CUDA driver reports, auto never comes back empty
    assertThat(Device.parse("auto")).isNotEmpty();
  }

  @Test
  void rejectsBadSpecsWithTheOffendingPart() {
    assertThatThrownBy(() -> Device.parse("tpu:0")).hasMessageContaining("'tpu:0' is not a device");
    assertThatThrownBy(() -> Device.parse("gpu:0,gpu:0")).hasMessageContaining("given twice");
    assertThatThrownBy(() -> Device.parse("cpu:0")).hasMessageContaining("1..1024");
  }
}
