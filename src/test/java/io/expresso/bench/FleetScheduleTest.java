package io.expresso.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.expresso.bench.FleetSchedule.Window;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetScheduleTest {

  @Test
  void theFluidIdealIntegratesTheDeviceCount() {
    // 2 devices until 20 s (40 device-s), 3 until 40 s (60 more), then 2: 240 device-s are supplied at 110 s
    List<Window> w = List.of(new Window("w1", 0, 40, 40), Window.always("w2"),
        new Window("w3", 20, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
    assertThat(FleetSchedule.fluidIdeal(240, w)).isCloseTo(110, within(1e-9));
    assertThat(FleetSchedule.fluidIdeal(30, w)).isCloseTo(15, within(1e-9));
    assertThat(FleetSchedule.supplied(w, 110)).isCloseTo(240, within(1e-9));
    assertThat(FleetSchedule.fluidIdeal(100, List.of(new Window("gone", 0, 10, 10)))).isInfinite();
  }

  @Test
  void theDiscreteIdealLetsALeavingDeviceFinishWhatItStarted() {
    List<Window> w = List.of(new Window("w1", 0, 45, 45), Window.always("w2"),
        new Window("w3", 25, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
    // w1 starts at 0,10,20,30,40 (5 tasks); w2 and w3 share the other 19 from 0 and 25
    double makespan = FleetSchedule.discreteIdeal(24, 10, w);
    assertThat(makespan).isCloseTo(110, within(1e-9));
    assertThat(FleetSchedule.discreteIdeal(3, 10, List.of(Window.always("one")))).isCloseTo(30, within(1e-9));
  }

  @Test
  void prometheusSamplesAreSummedOverLabels() {
    Map<String, Double> s = FleetSchedule.sums("""
        # HELP expresso_device_busy_seconds_total Time the device spent on tasks
        # TYPE expresso_device_busy_seconds_total counter
        expresso_device_busy_seconds_total{device="cpu:0"} 12.5
        expresso_device_busy_seconds_total{device="cpu:1"} 7.5
        expresso_tasks_cancelled_total{kind="synthetic",reason="a \\"}\\" b"} 2.0
        process_uptime_seconds 3.0
        """);
    assertThat(s).containsEntry("expresso_device_busy_seconds_total", 20.0)
        .containsEntry("expresso_tasks_cancelled_total", 2.0).containsEntry("process_uptime_seconds", 3.0);
  }

  @Test
  void idleTimeCountsOnlyWhileSomeTaskWaits() {
    // a: busy 0-10 and 10-20; b: joins at 5, busy 12-22; the last task starts at 12
    List<List<double[]>> busy = List.of(List.of(new double[] {0, 10}, new double[] {10, 20}),
        List.of(new double[] {12, 22}));
    List<Window> w = List.of(Window.always("a"), new Window("b", 5, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
    double[] idle = FleetSchedule.idleWhileWaiting(busy, w, new double[] {0, 10, 12}, 22);
    assertThat(idle[0]).isCloseTo(0, within(0.02));
    assertThat(idle[1]).isCloseTo(7, within(0.02)); // 5 to 12, then nothing waits
  }

  @Test
  void theChartMarksWorkAndAvailability() {
    String row = FleetSchedule.chart(List.of(new double[] {2, 6}), new Window("w", 1, 8, 8), 10, 1);
    assertThat(row).isEqualTo(" .####..");
  }
}
