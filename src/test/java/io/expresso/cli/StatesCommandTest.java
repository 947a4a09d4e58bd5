package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.robust.JobRunner;
import io.expresso.robust.ModelStore;
import io.expresso.robust.TrainJob;
import io.expresso.robust.TrainOutcome;
import io.expresso.robust.TrainResumeTest;
import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.robust.fleet.TrainStateArchive;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import io.expresso.train.PlateauSchedule;
import io.expresso.train.TrainingState;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expresso states export} on one broker, {@code states import} on a fresh one (a new
 * directory, as a GPU machine of a later session): the same train jobs resume there after their
 * saved epochs.
 */
class StatesCommandTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @Test
  void statesExportedFromOneBrokerResumeTheSameJobsOnAFreshOne(@TempDir Path dir) throws Exception {
    TrainJob cut = TrainResumeTest.job("carry", 1); // 4 epochs at most; cut in epoch 3
    TrainJob done = TrainResumeTest.job("carry", 2); // trained to its end
    TrainJob elsewhere = TrainResumeTest.job("other", 1);
    Path file = dir.resolve("states.bin");
    byte[] cutState;
    byte[] doneState;
    byte[] doneModel;
    TrainOutcome uninterrupted;
    try (EmbeddedBroker a = EmbeddedBroker.start(0, dir.resolve("broker-a"))) {
      Topics.ensure(a.bootstrap(), 2);
      try (KafkaModelStore store = new KafkaModelStore(a.bootstrap(), "worker-a");
          JobRunner runner = new JobRunner(store, "cpu", 1, null)) {
        TrainResumeTest.interruptAfterTwoEpochs(runner, cut);
        uninterrupted = runner.train(done);
        cutState = store.getProgress(cut).orElseThrow();
        store.putProgress(elsewhere, cutState); // another experiment's: not exported
        doneState = store.getProgress(done).orElseThrow();
        doneModel = store.get(done.modelId()).orElseThrow();
      }
      assertThat(Main.execute("states", "export", "--bootstrap", a.bootstrap(), "--experiment", "carry",
          "--to", file.toString())).isZero();
      // smaller without Adam's moments (the running state's; a finished one carries none anyway)
      Path lean = dir.resolve("lean.bin");
      assertThat(Main.execute("states", "export", "--bootstrap", a.bootstrap(), "--experiment", "carry",
          "--to", lean.toString(), "--without-moments")).isZero();
      assertThat(console.out()).contains("without Adam's moments");
      assertThat(TrainStateArchive.read(lean)).allSatisfy(e -> assertThat(e.state().adam()).isNull());
      assertThat(TrainStateArchive.read(file)).filteredOn(e -> !e.finished())
          .singleElement().satisfies(e -> assertThat(e.state().adam()).isNotNull());
      assertThat(Files.size(lean)).isLessThan(Files.size(file));
    }
    assertThat(console.out()).contains("exported 2 train states of experiment carry (1 finished, 1 to continue)",
        cut.modelId() + ": epoch 2", done.modelId() + ": epoch 4").doesNotContain(elsewhere.modelId());
    assertThat(TrainingState.fromBytes(cutState).epoch()).isEqualTo(2);

    try (EmbeddedBroker b = EmbeddedBroker.start(0, dir.resolve("broker-b"))) {
      assertThat(Main.execute("states", "import", "--bootstrap", b.bootstrap(), "--create-topics", "--from",
          file.toString())).isZero();
      assertThat(console.out()).contains("imported 2 of 2 train states from " + file);
      try (KafkaModelStore store = new KafkaModelStore(b.bootstrap(), "worker-b");
          JobRunner runner = new JobRunner(store, "cpu", 1, null)) {
        assertThat(store.getProgress(cut).orElseThrow()).as("the state of epoch 2, bit for bit").isEqualTo(cutState);
        List<Integer> epochs = new ArrayList<>();
        TrainOutcome resumed = runner.train(cut, () -> false, (j, max, e) -> epochs.add(e.epoch()));
        assertThat(resumed.resumedFromEpoch()).isEqualTo(2);
        assertThat(epochs).as("epochs 1-2 are not trained again").containsExactly(3, 4);
        // Adam's moments travelled too: the resumed job is the uninterrupted one, bit for bit
        ModelStore memory = ModelStore.inMemory();
        try (JobRunner alone = new JobRunner(memory, "cpu", 1, null)) {
          TrainOutcome straight = alone.train(cut);
          assertThat(resumed.errors()).isEqualTo(straight.errors());
          assertThat(resumed.bestValidationL1()).isEqualTo(straight.bestValidationL1());
          assertThat(store.get(cut.modelId()).orElseThrow()).as("the same checkpoint as trained in one go")
              .isEqualTo(memory.get(cut.modelId()).orElseThrow());
        }

        // the finished run: nothing trained, the same model and errors as the uninterrupted run
        epochs.clear();
        TrainOutcome again = runner.train(done, () -> false, (j, max, e) -> epochs.add(e.epoch()));
        assertThat(epochs).isEmpty();
        assertThat(again.resumedFromEpoch()).isEqualTo(4);
        assertThat(again.errors()).isEqualTo(uninterrupted.errors());
        assertThat(again.bestEpoch()).isEqualTo(uninterrupted.bestEpoch());
        assertThat(again.bestValidationL1()).isEqualTo(uninterrupted.bestValidationL1());
        assertThat(store.get(done.modelId()).orElseThrow()).as("the same checkpoint").isEqualTo(doneModel);
        TrainingState imported = TrainingState.fromBytes(doneState);
        assertThat(TrainingState.fromBytes(store.getProgress(done).orElseThrow()).bestParameters())
            .isEqualTo(imported.bestParameters());
      }
      // importing again: the cluster is further along (epoch 4 > 2) or level, so nothing is written
      console.resetOut();
      assertThat(Main.execute("states", "import", "--bootstrap", b.bootstrap(), "--from", file.toString())).isZero();
      assertThat(console.out()).contains("imported 0 of 2", "left out: the cluster holds this job's state at epoch 4");
    }
  }

  @Test
  void aMissingForeignOrCorruptFileIsOneLineNamingIt(@TempDir Path dir) throws Exception {
    Path good = dir.resolve("good.bin");
    TrainJob job = TrainResumeTest.job("carry", 1);
    TrainingState state = new TrainingState(2, 1, new byte[] {1, 2, 3, 4, 5}, new byte[] {1, 2, 3, 4, 6}, 1, 0.7,
        0.5, new PlateauSchedule.State(1e-3f, Double.POSITIVE_INFINITY, 0), 7, new byte[] {9, 8, 7}, 1);
    TrainStateArchive.write(good, List.of(new TrainStateArchive.Entry(job, state)));
    assertThat(TrainStateArchive.read(good)).singleElement().satisfies(e -> {
      assertThat(e.job()).isEqualTo(job);
      assertThat(e.state().toBytes()).isEqualTo(state.toBytes());
    });

    byte[] bytes = Files.readAllBytes(good);
    Path cut = dir.resolve("cut.bin");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 12));
    Path flipped = dir.resolve("flipped.bin");
    byte[] f = bytes.clone();
    f[f.length / 2] ^= 0x10;
    Files.write(flipped, f);
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "not a state file\n");
    Path otherGzip = dir.resolve("other.gz");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write("some other archive".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    Files.write(otherGzip, gz.toByteArray());

    for (Path p : List.of(dir.resolve("missing.bin"), cut, flipped, text, otherGzip)) {
      console.resetErr();
      assertThat(Main.execute("states", "import", "--bootstrap", "127.0.0.1:1", "--from", p.toString()))
          .as(p.toString()).isEqualTo(1);
      assertThat(console.err()).as(p.toString()).startsWith("expresso: error: train-state file " + p + ": ")
          .doesNotContain("\n");
    }
  }
}
