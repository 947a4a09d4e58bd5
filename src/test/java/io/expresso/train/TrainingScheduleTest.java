package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.expresso.model.Architecture;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Every architecture's default schedule is the one its BREC script builds. Each script (GraphPKU/BREC
 * at 966b5ed, path:line) calls {@code scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)},
 * i.e. PyTorch's defaults (mode min, factor 0.1, patience 10, threshold 1e-4 relative, cooldown 0,
 * min_lr 0, eps 1e-8), and {@code scheduler.step(loss_all)} after an epoch that did not stop early.
 */
class TrainingScheduleTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
      "PPGN, ProvablyPowerfulGraphNetworks_torch/main_scripts/test_BREC.py:195",
      "GIN, base/test_BREC.py:181",
      "NGNN_DE, NestedGNN/test_BREC.py:378",
      "NGNN, NestedGNN/test_BREC.py:378",
      "GSN, GSN/test_BREC.py:168",
      "DS_GNN, SUN/test_BREC_ds.py:379",
      // test_BREC_search_dss.py, whose settings the defaults take, runs test_BREC_dss.py
      "DSS_GNN, SUN/test_BREC_dss.py:376",
      "SUN, SUN/test_BREC_sun.py:376",
      "SSWL_P, SWL/test_BREC.py:218",
      // test_BREC_search.py runs test_BREC_no4v_60cfi.py
      "I2GNN, I2GNN/test_BREC_no4v_60cfi.py:263",
      // its --factor (0.5) and --patience (5) arguments are parsed but never passed to the scheduler
      "KP_GNN, KP-GNN/test_BREC.py:428",
      "GNN_AK, GNNAsKernel/test_BREC.py:199",
      "DROP_GNN, DropGNN/test_BREC.py:451",
      "GRAPHORMER, Graphormer/graphormer/test_BREC.py:204",
      "DELTA_K_LGNN, SparseWL/neural_higher_order/BREC/test_BREC.py:403",
      "KC_SET_GNN, KCSetGNN/test_BREC.py:199",
      "OSAN, OSAN/test_BREC.py:284",
  })
  void theDefaultScheduleIsTheOneTheBrecScriptBuilds(Architecture a, String script) {
    PlateauSchedule.Settings s = TrainingSettings.defaults(a).schedule();
    assertThat(s).as(script).isEqualTo(PlateauSchedule.Settings.PYTORCH);
    assertThat(s.factor()).isEqualTo(0.1f);
    assertThat(s.patience()).isEqualTo(10);
    assertThat(s.minRate()).isZero();
    assertThat(s.text()).isEqualTo("plateau:factor=0.1,patience=10,min-lr=0.0");
  }

  @Test
  void everyArchitectureIsCoveredAbove() {
    Set<Architecture> covered = EnumSet.of(Architecture.PPGN, Architecture.GIN, Architecture.NGNN_DE, Architecture.NGNN, Architecture.GSN,
        Architecture.DS_GNN, Architecture.DSS_GNN, Architecture.SUN, Architecture.SSWL_P, Architecture.I2GNN, Architecture.KP_GNN,
        Architecture.GNN_AK, Architecture.DROP_GNN, Architecture.GRAPHORMER,
        Architecture.DELTA_K_LGNN, Architecture.KC_SET_GNN, Architecture.OSAN);
    assertThat(covered).containsExactlyInAnyOrder(Architecture.values());
  }

  /**
   * The rates PyTorch 2.13's {@code ReduceLROnPlateau(Adam(lr=1e-4))} gave for these losses:
   * reductions after epochs 13, 26, 37 and 48, none after that (1e-8 to 1e-9 is within eps).
   */
  @Test
  void ratesFollowPyTorchsReduceLrOnPlateau() {
    List<Double> losses = new ArrayList<>(List.of(1.0, 0.9));
    for (int i = 0; i < 12; i++) {
      losses.add(0.89999); // not better than 0.9 by the relative threshold 1e-4
    }
    for (int i = 0; i < 72; i++) {
      losses.add(0.5);
    }
    PlateauSchedule s = PlateauSchedule.Settings.PYTORCH.start(1e-4f);
    List<Integer> reducedAfter = new ArrayList<>();
    float before = s.rate();
    for (int e = 1; e <= losses.size(); e++) {
      s.afterEpoch(e, losses.get(e - 1));
      if (s.rate() != before) {
        reducedAfter.add(e);
        before = s.rate();
      }
    }
    assertThat(reducedAfter).containsExactly(13, 26, 37, 48);
    assertThat((double) s.rate()).isCloseTo(1e-8, within(1e-12));
  }

  @Test
  void theOldScheduleStaysAvailableByName() {
    assertThat(PlateauSchedule.Settings.parse("legacy")).isEqualTo(new PlateauSchedule.Settings(0.5f, 5, 1e-6f));
    assertThat(PlateauSchedule.Settings.parse("pytorch")).isEqualTo(PlateauSchedule.Settings.PYTORCH);
    PlateauSchedule.Settings custom = PlateauSchedule.Settings.parse("plateau:factor=0.5,patience=3");
    assertThat(custom).isEqualTo(new PlateauSchedule.Settings(0.5f, 3, 0f));
    assertThat(PlateauSchedule.Settings.parse(custom.text())).isEqualTo(custom);
    assertThat(PlateauSchedule.Settings.parse(PlateauSchedule.Settings.LEGACY.text())).isEqualTo(PlateauSchedule.Settings.LEGACY);
    assertThatThrownBy(() -> PlateauSchedule.Settings.parse("step")).hasMessageContaining("pytorch, legacy");
    assertThatThrownBy(() -> PlateauSchedule.Settings.parse("plateau:decay=2")).hasMessageContaining("unknown setting");
    assertThatThrownBy(() -> PlateauSchedule.Settings.parse("plateau:factor=2")).hasMessageContaining("(0, 1)");
  }
}
