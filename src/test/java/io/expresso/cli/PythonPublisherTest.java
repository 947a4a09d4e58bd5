package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.metrics.ExternalTools;
import io.expresso.model.TorchScriptFixtures;
import io.expresso.runtime.Device;
import io.expresso.runtime.EmbeddedBroker;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.Topics;
import io.expresso.runtime.Worker;
import io.expresso.testing.Integration;
import io.expresso.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/torchscript/publish_brec.py, the Python user's way in: it stores the module, publishes the
 * excerpt's pairs with code generated from protos/ and prints the results a real worker produced.
 * Needs Debian's python3-confluent-kafka, python3-protobuf and protobuf-compiler (scripts/test-tools);
 * a missing one fails the test with its package name.
 */
@Integration
@Timeout(300)
class PythonPublisherTest {

  private static final List<String> PACKAGES = List.of("python3-confluent-kafka", "python3-protobuf", "protobuf-compiler");

  /** A python3 that imports confluent_kafka and google.protobuf: Debian's, also where another python3 comes first on PATH. */
  private static Path python() throws Exception {
    ExternalTools.require("protoc", "protobuf-compiler");
    for (Path p : List.of(ExternalTools.require("python3", "python3"), Path.of("/usr/bin/python3"))) {
      if (Files.isExecutable(p) && ExternalTools.run(List.of(p.toString(), "-c", "import confluent_kafka, google.protobuf"),
          null, 60).exitCode() == 0) {
        return p;
      }
    }
    throw new AssertionError(ExternalTools.missing("confluent_kafka or google.protobuf for python3",
        String.join(" ", PACKAGES)));
  }

  @Test
  void publishesTheExcerptWithATorchScriptModelAndPrintsTheResults(@TempDir Path dir) throws Exception {
    Path python = python();
    Path module = dir.resolve("gin.pt");
    Files.write(module, TorchScriptFixtures.bytes("gin.pt"));
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 2);
      try (Worker worker = Worker.start(Worker.Settings.of(broker.bootstrap(), Device.parse("cpu:1")),
          EvaluatorRegistry.defaults().allowUserModules(), TaskObserver.NONE)) {
        ExternalTools.Run r = ExternalTools.run(List.of(python.toString(), "examples/torchscript/publish_brec.py",
            "--bootstrap", broker.bootstrap(), "--experiment", "py-ts", "--suite",
            SharedData.require("data/brec-excerpt/brec_excerpt.g6").toString(), "--indices", "0,60,110,160",
            "--model", module.toString(), "--epochs", "2", "--wait", "240"), null, 280);
        assertThat(r.exitCode()).as(r.output()).isZero();
        String sha = io.expresso.model.TorchScriptSpec.sha256(TorchScriptFixtures.bytes("gin.pt"));
        assertThat(r.output()).contains("stored TorchScript module sha256:" + sha)
            .contains("published 4 pair tasks (torchscript:sha256:" + sha + ")")
            .containsPattern("Basic\\s+1\\s+0\\s+0")
            .containsPattern("Regular\\s+2\\s+0\\s+0")
            .containsPattern("Extension\\s+1\\s+0\\s+0")
            .doesNotContain("error:");
      }
    }
  }
}
