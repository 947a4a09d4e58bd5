package io.expresso.cli;

import io.expresso.graph.Graph;
import io.expresso.suite.BrecBuilder;
import io.expresso.suite.BrecFileWriter;
import io.expresso.suite.BrecLayout;
import io.expresso.suite.BrecRaw;
import io.expresso.suite.BrecVariant;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code expresso suite ...}: build expressiveness suite files. */
@Command(name = "suite", mixinStandardHelpOptions = true, description = "Build expressiveness suite files.",
    subcommands = {SuiteCommand.BuildBrec.class})
final class SuiteCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (build-brec)");
  }

  /** {@code suite build-brec}: BREC's dataset file from its raw category files, as BREC's scripts build it. */
  @Command(name = "build-brec", mixinStandardHelpOptions = true,
      description = {"Build a BREC dataset file from BREC's seven raw category files (basic.npy, regular.npy,"
          + " str.npy, extension.npy, cfi.npy, 4vtx.npy, dr.npy) in BREC's layout: q relabelings of each graph"
          + " of every pair, then 2q relabelings of one graph per pair, drawn from the seed.",
          "Read the result with --suite brec:FILE."})
  static final class BuildBrec implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--raw", required = true, paramLabel = "DIR", description = "directory of BREC's raw category files")
    Path raw;

    @Option(names = "--out", required = true, paramLabel = "FILE",
        description = "output file: .npy (NumPy |S array, as BREC's np.save writes it) or .g6 (one graph per line)")
    Path out;

    @Option(names = "--q", defaultValue = "32", paramLabel = "Q", description = "relabelings per graph (default ${DEFAULT-VALUE})")
    int q;

    @Option(names = "--seed", defaultValue = "" + BrecBuilder.DEFAULT_SEED, paramLabel = "S",
        description = "seed of the relabelings (default ${DEFAULT-VALUE}, BREC's own)")
    long seed;

    @Option(names = "--variant", defaultValue = "full", paramLabel = "NAME",
        description = "which BREC file: full (brec_v3, 400 pairs), 3wl (brec_v3_3wl, 270), no4v-60cfi"
            + " (brec_v3_no4v_60cfi, 340); default ${DEFAULT-VALUE}")
    String variantName;

    @Override
    public Integer call() throws Exception {
      BrecVariant variant;
      try {
        variant = BrecVariant.byName(variantName);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--variant: " + e.getMessage());
      }
      UsageChecks.range(spec, "--q", q, 1, 4096);
      if (!BrecFileWriter.knows(out)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + ": the name must end in .npy or .g6");
      }
      Path dir = out.toAbsolutePath().getParent();
      if (!Files.isDirectory(dir)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + ": directory " + dir + " does not exist");
      }
      List<Graph> entries = BrecBuilder.entries(BrecRaw.pairs(raw, variant), q, seed);
      BrecFileWriter.write(out, entries);

      String categories = variant.ranges().stream()
          .map(r -> r.name() + " " + (r.to() - r.from()))
          .collect(Collectors.joining(", "));
      String readAs = "brec:" + out + (q == BrecLayout.Q ? "" : "#q=" + q);
      PrintWriter w = spec.commandLine().getOut();
      w.printf(Locale.ROOT, "wrote %s: BREC variant %s (%s), %d pairs (%s), q %d, seed %d, %d graphs, %d bytes%n",
          out, variant.name(), variant.brecFile(), variant.pairs(), categories, q, seed, entries.size(), Files.size(out));
      w.println("read it with --suite '" + readAs + "'");
      w.flush();
      return 0;
    }
  }
}
