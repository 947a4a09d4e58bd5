package io.expresso.cli;

import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.robust.fleet.TrainStateArchive;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso states}: carry an experiment's saved training states from one cluster to another
 * ({@link TrainStateArchive}), so that training continues across machines that start bare.
 */
@Command(name = "states", mixinStandardHelpOptions = true,
    description = {"Carry saved training states between clusters: 'export' writes an experiment's train states"
        + " (expresso.models, <model id>#progress) to a file, 'import' writes them into another cluster, where"
        + " publishing the same train tasks again resumes each one after its saved epoch."},
    subcommands = {StatesCommand.Export.class, StatesCommand.Import.class})
final class StatesCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (export or import)");
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Write the saved training states of an experiment's train tasks to a file.")
  static final class Export implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--experiment", required = true, paramLabel = "E", description = "the experiment whose states to export")
    String experiment;

    @Option(names = "--to", required = true, paramLabel = "FILE", description = "the file to write (replaced whole)")
    Path to;

    @Option(names = "--without-moments", description = {"leave Adam's moments out (about half of a running state's"
        + " bytes): each task then resumes with Adam afresh on its saved parameters, a warm restart whose"
        + " trajectory differs from an uninterrupted run's; by default a resumed task is its uninterrupted run,"
        + " bit for bit"})
    boolean withoutMoments;

    @Override
    public Integer call() {
      KafkaClients clients = kafka.clients(spec);
      List<TrainStateArchive.Entry> entries;
      try (KafkaModelStore store = new KafkaModelStore(clients, "states-export")) {
        entries = TrainStateArchive.export(store, experiment);
      }
      if (withoutMoments) {
        entries = entries.stream().map(TrainStateArchive.Entry::withoutMoments).toList();
      }
      long bytes;
      try {
        TrainStateArchive.write(to, entries);
        bytes = Files.size(to);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot write train-state file " + to + ": " + e);
      }
      PrintWriter o = spec.commandLine().getOut();
      long finished = entries.stream().filter(TrainStateArchive.Entry::finished).count();
      o.printf(Locale.ROOT, "exported %d train state%s of experiment %s (%d finished, %d to continue) to %s, %s%s%n",
          entries.size(), entries.size() == 1 ? "" : "s", experiment, finished, entries.size() - finished, to,
          size(bytes), withoutMoments ? ", without Adam's moments" : "");
      for (TrainStateArchive.Entry e : entries) {
        o.println("  " + describe(e));
      }
      o.flush();
      return 0;
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = {"Write the training states of a file 'states export' wrote into this cluster's expresso.models."
          + " Then publish the same train tasks (the same experiment and options): each resumes after its saved"
          + " epoch; a finished one trains nothing and stores its model. A state the cluster already holds at the"
          + " same or a later epoch is left as it is."})
  static final class Import implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();
    @CommandLine.Mixin TopicOptions topics = new TopicOptions();

    @Option(names = "--from", required = true, paramLabel = "FILE", description = "a file written by 'states export'")
    Path from;

    @Override
    public Integer call() {
      List<TrainStateArchive.Entry> entries = TrainStateArchive.read(from); // a bad file: one line, nothing written
      KafkaClients clients = kafka.clients(spec);
      topics.prepare(spec, clients);
      List<TrainStateArchive.Imported> done;
      try (KafkaModelStore store = new KafkaModelStore(clients, "states-import")) {
        done = TrainStateArchive.importInto(store, entries);
      }
      PrintWriter o = spec.commandLine().getOut();
      long written = done.stream().filter(TrainStateArchive.Imported::written).count();
      o.printf(Locale.ROOT, "imported %d of %d train state%s from %s into %s%n", written, entries.size(),
          entries.size() == 1 ? "" : "s", from, Topics.MODELS);
      for (TrainStateArchive.Imported i : done) {
        o.println("  " + describe(i.entry()) + (i.written() ? ""
            : " — left out: the cluster holds this job's state at epoch " + i.storedEpoch()));
      }
      o.flush();
      return 0;
    }
  }

  private static String describe(TrainStateArchive.Entry e) {
    return String.format(Locale.ROOT, "%s: epoch %d, best epoch %d (validation l1 %.5f)%s", e.job().modelId(),
        e.state().epoch(), e.state().bestEpoch(), e.state().bestValidationL1(), e.finished() ? ", finished" : "");
  }

  private static String size(long bytes) {
    return bytes >= 1 << 20 ? String.format(Locale.ROOT, "%.2f MiB", bytes / (double) (1 << 20))
        : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
  }
}
