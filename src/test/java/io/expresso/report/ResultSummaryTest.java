package io.expresso.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.proto.v1.AttackResult;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import io.expresso.proto.v1.TrainResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultSummaryTest {

  private static Result pair(String id, String method, String category, int index, boolean d) {
    return Result.newBuilder().setExperimentId("e").setTaskId(id).setPair(PairResult.newBuilder()
        .setMethod(method).setCategory(category).setPairIndex(index).setDistinguished(d).setReliable(true)).build();
  }

  @Test
  void jsonHasExactlyTheIssueKeysAndCountsPerCategoryInSuiteOrder() throws Exception {
    List<Result> rs = new ArrayList<>();
    rs.add(pair("a", "1-wl", "CFI", 90, true));
    rs.add(pair("b", "1-wl", "Basic", 1, false));
    rs.add(pair("c", "1-wl", "Basic", 2, true));
    rs.add(Result.newBuilder().setExperimentId("e").setTaskId("d")
        .setError(TaskError.newBuilder().setReason("invalid-graph6").setMessage("x")).build());
    ResultSummary s = new ResultSummary("e", rs, new ResultSummary.DuplicateRecords(3, 1));
    JsonNode j = new ObjectMapper().readTree(s.json());
    List<String> keys = new ArrayList<>();
    j.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("experiment", "unique_results", "duplicates_in_report", "errors", "categories",
        "duplicate_records", "superseded_errors");
    assertThat(j.get("duplicate_records").asInt()).isEqualTo(3);
    assertThat(j.get("superseded_errors").asInt()).isEqualTo(1);
    assertThat(s.duplicateRecordsLine()).isEqualTo("3 duplicate result records (a task id already read; each task"
        + " counted once: 1 replaced an error result, 2 ignored)");
    assertThat(j.get("unique_results").asInt()).isEqualTo(4);
    assertThat(j.get("duplicates_in_report").asInt()).isZero();
    assertThat(j.get("errors").asInt()).isEqualTo(1);
    assertThat(s.rows().get(0).category()).isEqualTo("Basic");
    assertThat(s.rows().get(0).tasks()).isEqualTo(2);
    assertThat(s.rows().get(0).distinguished()).isEqualTo(1);
    assertThat(s.rows().get(1).category()).isEqualTo("CFI");
  }

  @Test
  void trainAndAttackResultsGetRowsAndValidJsonWithNullForNaN() throws Exception {
    Result train = Result.newBuilder().setExperimentId("e").setTaskId("train:k")
        .setProvenance(Provenance.newBuilder().setTaskKind("train").setComputeSeconds(2.5))
        .setTrain(TrainResult.newBuilder().setModel("ppgn:hidden=16").setPattern("triangle").setDataset("er-0.3")
            .setSeed(1).setCheckpointKey("k").setEpochs(20).setTestMae(0.25).setTestLc(0.1).setCorrectTest(30)
            .setBestEpoch(12).setValidationMae(0.3).setSeconds(2.0).setResumedFromEpoch(7)
            .setJob(io.expresso.proto.v1.TrainJob.newBuilder().setMaxEpochs(40))).build();
    AttackResult.Builder a = AttackResult.newBuilder().setModel("ppgn:hidden=16").setCheckpointKey("k")
        .setPattern("triangle").setSpace("count").setBeamWidth(2).setNr(0.5).setNrTransfer(Double.NaN).setAttacked(3)
        .addBudgets(1).addBudgets(4).addBudgetFractions(0.01).addBudgetFractions(0.25);
    boolean[][] adversarial = {{false, true}, {true, true}, {false, false}};
    for (boolean[] g : adversarial) {
      a.addOutcomes(GraphOutcome.newBuilder().addBudgets(1).addBudgets(4).addAdversarial(g[0]).addAdversarial(g[1]));
    }
    Result attack = Result.newBuilder().setExperimentId("e").setTaskId("attack:k/attack-count")
        .setProvenance(Provenance.newBuilder().setTaskKind("attack")).setAttack(a).build();
    ResultSummary s = new ResultSummary("e", List.of(train, attack));
    assertThat(s.trainRows()).singleElement().satisfies(t -> {
      assertThat(t.checkpoint()).isEqualTo("k");
      assertThat(t.testL1()).isEqualTo(0.25);
      assertThat(t.seconds()).isEqualTo(2.5);
    });
    assertThat(s.attackRows()).singleElement().satisfies(r -> assertThat(r.fooled()).containsExactly(1, 2));
    JsonNode j = new ObjectMapper().readTree(s.json()); // NaN would make this invalid JSON
    assertThat(j.get("train").get(0).get("test_l1").asDouble()).isEqualTo(0.25);
    // what a train-only run reads: the epoch cap it ran under, the kept epoch, training seconds
    assertThat(j.get("train").get(0).get("max_epochs").asInt()).isEqualTo(40);
    assertThat(j.get("train").get(0).get("best_epoch").asInt()).isEqualTo(12);
    assertThat(j.get("train").get(0).get("validation_l1").asDouble()).isEqualTo(0.3);
    assertThat(j.get("train").get(0).get("train_seconds").asDouble()).isEqualTo(2.0);
    assertThat(j.get("train").get(0).get("resumed_from_epoch").asInt()).as("a run continued over sessions").isEqualTo(7);
    assertThat(j.get("attack").get(0).get("nr_transfer").isNull()).isTrue();
    assertThat(j.get("attack").get(0).get("fooled")).hasSize(2);
    assertThat(ReportFiles.markdown(s)).contains("## Trained models", "## Attacks",
        "| k | ppgn:hidden=16 | triangle | er-0.3 | 1 | 0.250 | 0.100 | 30 | 20 | 2.500 |",
        "| k | ppgn:hidden=16 | count | 2 | 1,4 | 1,2 | 3 | 0.500 | - | 0.000 |");
    assertThat(ReportFiles.html(s)).contains("<h2>Attacks</h2>", "<td>1,2</td>");
  }

  @Test
  void duplicatesInReportIsCountedNotAssumed() {
    ResultSummary s = new ResultSummary("e", List.of(pair("a", "1-wl", "x", 0, true), pair("a", "1-wl", "x", 0, true)));
    assertThat(s.duplicatesInReport()).isEqualTo(1);
  }

  @Test
  void writesJsonlMarkdownAndHtml(@TempDir Path dir) throws Exception {
    ResultSummary s = new ResultSummary("exp 1", List.of(pair("a", "3-wl", "CSL", 3, true), pair("b", "3-wl", "CSL", 4, false)));
    List<Path> files = ReportFiles.write(dir, s);
    assertThat(files).extracting(p -> p.getFileName().toString())
        .containsExactly("exp_1.results.jsonl", "exp_1.summary.json", "exp_1.report.md", "exp_1.report.html");
    List<String> lines = Files.readAllLines(files.get(0));
    assertThat(lines).hasSize(2);
    assertThat(new ObjectMapper().readTree(lines.get(0)).get("task_id").asText()).isEqualTo("a");
    assertThat(Files.readString(files.get(2))).contains("| 3-wl | CSL | 2 | 1 | 50.0 |");
    assertThat(Files.readString(files.get(3))).contains("<td>CSL</td>");
  }

  @Test
  void reportsSayWhichArithmeticTheResultsRanAt() {
    List<Result> rs = new ArrayList<>();
    rs.add(pair("a", "ppgn", "Basic", 1, true).toBuilder()
        .setProvenance(Provenance.newBuilder().setDevice("gpu:0/1").setPrecision("tf32")).build());
    rs.add(pair("b", "ppgn", "Basic", 2, true).toBuilder()
        .setProvenance(Provenance.newBuilder().setDevice("gpu:0/2").setPrecision("fp32")).build());
    rs.add(pair("c", "ppgn", "Basic", 3, true).toBuilder()
        .setProvenance(Provenance.newBuilder().setDevice("cpu:0").setPrecision("fp32")).build()); // before threads were recorded
    rs.add(pair("d", "ppgn", "Basic", 4, true).toBuilder()
        .setProvenance(Provenance.newBuilder().setDevice("cpu:1").setPrecision("fp32").setIntraOpThreads(2)).build());
    ResultSummary s = new ResultSummary("e", rs);
    assertThat(s.byPrecision()).containsExactly(java.util.Map.entry("cpu fp32", 1), java.util.Map.entry("cpu fp32, 2 threads", 1),
        java.util.Map.entry("gpu fp32", 1), java.util.Map.entry("gpu tf32", 1));
    assertThat(ResultTables.render(s))
        .contains("ran on: cpu fp32 (1 result), cpu fp32, 2 threads (1 result), gpu fp32 (1 result), gpu tf32 (1 result)");
    assertThat(ReportFiles.markdown(s))
        .contains("Ran on (device, arithmetic): cpu fp32: 1, cpu fp32, 2 threads: 1, gpu fp32: 1, gpu tf32: 1.");
  }
}
