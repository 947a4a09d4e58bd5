package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SearchGridTest {

  @Test
  void theScalesGridsAreCampiEtAlsAtPaperAndSmallerBelow() {
    SearchGrid paper = SearchGrid.of(Scale.PAPER);
    assertThat(paper.learningRates()).containsExactly(1e-5f, 1e-4f, 1e-3f, 1e-2f);
    assertThat(paper.batchSizes()).containsExactly(16, 64, 128);
    assertThat(paper.widths()).containsExactly(64, 128, 256);
    assertThat(paper.depths()).containsExactly(2, 3, 5);
    List<SearchGrid.Point> ppgn = paper.points(StudyJobs.resolveSpec("ppgn", io.expresso.count.Pattern.TRIANGLE, Scale.PAPER));
    assertThat(ppgn).hasSize(4 * 3 * 3 * 3);
    // their selected models took one input channel (GNN_retrain.py feeds in_channels=1); d is half the width
    assertThat(ppgn).extracting(SearchGrid.Point::spec).allSatisfy(s -> assertThat(s).contains("in=1,"))
        .contains("ppgn:in=1,hidden=256,d=128,layers=5,depth=2");
    // I²-GNN's constructor fixes its width at 64: rate × batch × depth only
    assertThat(paper.points(StudyJobs.resolveSpec("i2gnn", io.expresso.count.Pattern.TRIANGLE, Scale.PAPER)))
        .hasSize(4 * 3 * 3);
  }

  @Test
  void aUsersGridReplacesTheKeysItGivesAndKeepsTheOthers() {
    SearchGrid g = SearchGrid.parse(" lr = 1e-4, 0.001 ; depth=5", SearchGrid.of(Scale.PAPER));
    assertThat(g.learningRates()).containsExactly(1e-4f, 1e-3f);
    assertThat(g.depths()).containsExactly(5);
    assertThat(g.batchSizes()).containsExactly(16, 64, 128);
    assertThat(g.widths()).containsExactly(64, 128, 256);
    List<SearchGrid.Point> points = g.points("gin:layers=3,hidden=32");
    assertThat(points).hasSize(2 * 3 * 3);
    assertThat(points).allSatisfy(p -> assertThat(p.spec()).contains("layers=5"));
  }

  @Test
  void aBadGridIsOneLineNamingTheKeyOrValue() {
    SearchGrid base = SearchGrid.of(Scale.SMALL);
    assertThatThrownBy(() -> SearchGrid.parse("lr=1e-3;momentum=0.9", base))
        .hasMessage("--grid: unknown key 'momentum' in 'momentum=0.9' (keys: lr, batch, width, depth)");
    assertThatThrownBy(() -> SearchGrid.parse("", base)).hasMessageStartingWith("--grid is empty");
    assertThatThrownBy(() -> SearchGrid.parse("batch=", base))
        .hasMessage("--grid: key 'batch' has no values (write batch=v1,v2)");
    assertThatThrownBy(() -> SearchGrid.parse("depth", base)).hasMessageContaining("key 'depth' has no values");
    assertThatThrownBy(() -> SearchGrid.parse("lr=1e-3;lr=1e-2", base)).hasMessage("--grid: key 'lr' is given twice");
    assertThatThrownBy(() -> SearchGrid.parse("lr=2", base)).hasMessage("--grid: lr must be in (0, 1), got 2");
    assertThatThrownBy(() -> SearchGrid.parse("lr=fast", base)).hasMessage("--grid: lr value 'fast' is not a number");
    assertThatThrownBy(() -> SearchGrid.parse("batch=16.5", base))
        .hasMessage("--grid: batch must be a whole number from 1 to 4096, got 16.5");
    assertThatThrownBy(() -> SearchGrid.parse("depth=0", base))
        .hasMessage("--grid: depth must be a whole number from 1 to 16, got 0");
    assertThat(List.of(base.learningRates()[0])).containsExactly(0.001f); // the base is not changed
  }
}
