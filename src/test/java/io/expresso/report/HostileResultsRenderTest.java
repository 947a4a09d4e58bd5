package io.expresso.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import io.expresso.proto.v1.TrainResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result whose experiment, suite, category, model, task id and error reason hold table
 * breakers, markup, newlines and ANSI escapes renders safely in the terminal tables, the
 * Markdown report and the HTML report.
 */
class HostileResultsRenderTest {

  private static final String EVIL = "x|y <script>alert(1)</script>\nforged row\u001b[2J\u001b[31m";

  private static ResultSummary summary() {
    Provenance.Builder worker = Provenance.newBuilder().setWorkerId("w" + EVIL).setDevice("cpu:0").setTaskKind("pair");
    Result pair = Result.newBuilder().setExperimentId("e" + EVIL).setTaskId("t" + EVIL).setProvenance(worker)
        .setPair(PairResult.newBuilder().setSuiteId("brec:/data/" + EVIL).setCategory("cat" + EVIL).setMethod("m" + EVIL)
            .setDistinguished(true).setReliable(true)).build();
    Result error = Result.newBuilder().setExperimentId("e" + EVIL).setTaskId("t2" + EVIL)
        .setProvenance(worker.clone().setWorkerId("w2"))
        .setError(TaskError.newBuilder().setReason("reason" + EVIL).setMessage(EVIL)).build();
    Result train = Result.newBuilder().setExperimentId("e" + EVIL).setTaskId("t3" + EVIL)
        .setProvenance(worker.clone().setTaskKind("train"))
        .setTrain(TrainResult.newBuilder().setModel("gin" + EVIL).setPattern("p" + EVIL).setDataset("d" + EVIL)
            .setCheckpointKey("k" + EVIL).setEpochs(1)).build();
    return new ResultSummary("e" + EVIL, List.of(pair, error, train));
  }

  @Test
  void terminalTablesHoldNoControlCharacterAndKeepTheirRows() {
    String out = ResultTables.render(summary());
    assertThat(out).doesNotContain("\u001b", "\r").contains("\\u001b[2J", "\\n");
    assertThat(out.lines()).as(out).noneMatch(l -> l.startsWith("forged row"));
    assertThat(out.chars().filter(c -> c != '\n')).noneMatch(Character::isISOControl);
  }

  @Test
  void markdownAndHtmlReportsEscapeEveryTaskString(@TempDir Path dir) throws Exception {
    List<Path> files = ReportFiles.write(dir, summary());
    String md = Files.readString(files.get(2));
    String html = Files.readString(files.get(3));

    assertThat(md).doesNotContain("\u001b", "<script>").contains("\\<script\\>", "x\\|y");
    assertThat(md.lines()).as(md).noneMatch(l -> l.startsWith("forged row"));
    // every table row has exactly its columns: no cell adds an unescaped "|"
    md.lines().filter(l -> l.startsWith("| ") && l.contains("x\\|y")).forEach(row -> {
      long pipes = row.replace("\\\\", "").replaceAll("\\\\\\|", "").chars().filter(c -> c == '|').count();
      assertThat(pipes).as(row).isIn(8L, 11L); // 7-column pair table, 10-column train table
    });

    assertThat(html).doesNotContain("<script>", "\u001b").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    assertThat(html.lines()).as(html).noneMatch(l -> l.startsWith("forged row"));
    // the summary table (3 rows of 7 cells) and the trained models (1 row of 10): no cell adds one
    assertThat(html.split("<td", -1).length - 1).as(html).isEqualTo(3 * 7 + 10);
    assertThat(html.split("<tr>", -1).length - 1).as(html).isEqualTo(4 + 2);
  }
}
