package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.model.TorchScriptFixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code eval --model torchscript:FILE}: judged like a built-in model; a module that does not fit is a usage error. */
class EvalTorchScriptTest {

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  private Path fixture(String name) throws Exception {
    Path p = dir.resolve(name);
    Files.write(p, TorchScriptFixtures.bytes(name));
    return p;
  }

  @Test
  void aModuleFileIsTrainedAndJudgedPerPair() throws Exception {
    Path gin = fixture("gin.pt");
    int code = run("eval", "--model", "torchscript:" + gin, "--suite", "builtin", "--pairs", "0-1", "--epochs", "2",
        "--results", dir.resolve("r.jsonl").toString());
    assertThat(code).as(err.toString()).isZero();
    String sha = TorchScriptFixtures.spec("gin.pt").sha256();
    assertThat(out.toString()).contains("model torchscript:sha256:" + sha + ",input=sparse,features=ones,init=auto")
        .containsPattern("total\\s+2\\s+0\\s+0\\s+0");
    assertThat(Files.readAllLines(dir.resolve("r.jsonl")).get(0)).contains("torchscript:sha256:" + sha);
  }

  @Test
  void modulesThatDoNotFitAreUsageErrorsNamingWhatIsWrong() throws Exception {
    assertThat(run("eval", "--model", "torchscript:" + fixture("node-output.pt"), "--suite", "builtin")).isEqualTo(2);
    assertThat(err.toString()).contains("forward must return float[B,d], one row per graph");
    assertThat(run("eval", "--model", "torchscript:" + dir.resolve("missing.pt"), "--suite", "builtin")).isEqualTo(2);
    assertThat(err.toString()).contains("missing.pt: no such file");
    Path text = dir.resolve("text.pt");
    Files.writeString(text, "not a module");
    assertThat(run("eval", "--model", "torchscript:" + text, "--suite", "builtin")).isEqualTo(2);
    assertThat(err.toString()).contains("not a TorchScript module");
  }
}
