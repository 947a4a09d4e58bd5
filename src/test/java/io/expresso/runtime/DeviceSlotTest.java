package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceSlotTest {

  @Test
  void parsesTheDeviceForms() {
    assertThat(DeviceSlot.parse("cpu:3")).extracting(DeviceSlot::id).containsExactly("cpu:0", "cpu:1", "cpu:2");
    assertThat(DeviceSlot.parse("gpu:0,gpu:1")).extracting(DeviceSlot::id).containsExactly("gpu:0", "gpu:1");
    // no GPU: one CPU device per core (a worker's tasks are of many kinds; see ThreadPolicy)
    assertThat(DeviceSlot.parse("auto", () -> 0)).allMatch(d -> d.type().equals("cpu"))
        .hasSize(Runtime.getRuntime().availableProcessors());
    assertThat(DeviceSlot.parse("auto", () -> 2)).extracting(DeviceSlot::id)
        .containsExactly("gpu:0/0", "gpu:0/1", "gpu:0/2", "gpu:0/3", "gpu:1/0", "gpu:1/1", "gpu:1/2", "gpu:1/3");
    assertThat(DeviceSlot.parse("gpu:0")).containsExactly(new DeviceSlot("gpu", 0));
    // this machine: whatever the CUDA driver reports, auto never comes back empty
    assertThat(DeviceSlot.parse("auto")).isNotEmpty();
  }

  @Test
  void rejectsBadSpecsWithTheOffendingPart() {
    assertThatThrownBy(() -> DeviceSlot.parse("tpu:0")).hasMessageContaining("'tpu:0' is not a device");
    assertThatThrownBy(() -> DeviceSlot.parse("gpu:0,gpu:0")).hasMessageContaining("given twice");
    assertThatThrownBy(() -> DeviceSlot.parse("cpu:0")).hasMessageContaining("1..1024");
    assertThatThrownBy(() -> DeviceSlot.parse("gpu:0x4,gpu:0")).hasMessageContaining("given twice").hasMessageContaining("gpu:0x2");
    assertThatThrownBy(() -> DeviceSlot.parse("cpux2")).hasMessageContaining("'cpux2': slots are for a GPU");
    assertThatThrownBy(() -> DeviceSlot.parse("gpu:0x0")).hasMessageContaining("1..64");
    assertThatThrownBy(() -> DeviceSlot.parse("gpu:0x65")).hasMessageContaining("1..64");
    assertThatThrownBy(() -> new DeviceSlot("cpu", 0, 1, 2)).hasMessageContaining("slots are for GPUs");
  }

  @Test
  void aGpuWithSlotsIsSeveralDevicesOnOneDjlDevice() {
    List<DeviceSlot> ds = DeviceSlot.parse("gpu:1x3, gpu:0");
    assertThat(ds).extracting(DeviceSlot::id).containsExactly("gpu:1/0", "gpu:1/1", "gpu:1/2", "gpu:0");
    assertThat(ds).extracting(DeviceSlot::slots).containsExactly(3, 3, 3, 1);
    assertThat(ds.get(2).djl()).isEqualTo(ai.djl.Device.gpu(1)); // what PyTorch runs on: the same GPU for every slot
    assertThat(ds.get(2).modelName()).isEqualTo("gpu:1");
  }
}
