package io.expresso.cli;

import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code expresso} command line. Exit codes: 0 success, 1 failure while running (bad input
 * file, failed evaluation), 2 bad usage. Errors are one clear line on stderr.
 */
@Command(
    name = "expresso",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Measure the realized expressive power of graph neural networks.",
    subcommands = {
      BaselineCommand.class,
      DemoCommand.class,
      GraphCommand.class,
      SuiteCommand.class,
      CountCommand.class,
      AttackCommand.class,
      AuditCommand.class,
      EvalCommand.class,
      TrainDatasetCommand.class,
      ModelsCommand.class,
      ExperimentCommand.class,
      BrokerCommand.class,
      WorkerCommand.class,
      PublishCommand.class,
      ResultsCommand.class,
      StatesCommand.class,
      UpCommand.class,
      WatchCommand.class,
      BenchCommand.class,
      DoctorCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line and returns its exit code (for tests and for {@link #main}). */
  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setParameterExceptionHandler((ex, a) -> {
      CommandLine cmd = ex.getCommandLine();
      cmd.getErr().println("expresso: " + ex.getMessage()
          + " (try '" + cmd.getCommandSpec().qualifiedName() + " --help')");
      return 2;
    });
    cl.setExecutionStrategy(parseResult -> {
      Integer help = CommandLine.executeHelpRequest(parseResult);
      if (help != null) {
        return help;
      }
      Optional<String> bad = ProcessSettings.problem();
      if (bad.isPresent()) {
        parseResult.commandSpec().commandLine().getErr().println("expresso: " + bad.get());
        return 2;
      }
      return new CommandLine.RunLast().execute(parseResult);
    });
    cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
      String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
      cmd.getErr().println("expresso: error: " + msg);
      return 1;
    });
    return cl;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  /** The version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"expresso " + (v == null ? "development build" : v)};
    }
  }
}
