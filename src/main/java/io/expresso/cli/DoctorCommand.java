package io.expresso.cli;

import io.expresso.engine.DeviceCheck;
import io.expresso.engine.EngineState;
import io.expresso.engine.NativeEngine;
import io.expresso.engine.ThreadPolicy;
import io.expresso.engine.GpuPrecision;
import io.expresso.engine.LoadedTorch;
import io.expresso.engine.NativeEnvironment;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.Versions;
import io.expresso.runtime.kafka.ClusterCheck;
import io.expresso.runtime.kafka.ShareGroup;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso doctor}: what a worker started here would run on — its devices, the PyTorch
 * native library and DJL JNI actually loaded, the environment that chose them, the precision —
 * and one small product on each device to show it computes.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
    description = "Show what a worker on this machine would run on: devices, the PyTorch library and DJL JNI loaded"
        + " (version, flavour, path), GPU precision; runs one small matrix product on each device."
        + " Exit code 1 if a device fails. With --bootstrap (or --kafka-config): what the Kafka cluster lacks for the"
        + " workers' share group instead, one line each; exit code 1 if it lacks anything.")
final class DoctorCommand implements Callable<Integer> {

  /** The environment DJL reads to find a host's own PyTorch (scripts/gpu-setup writes it). */
  private static final List<String> DJL_ENVIRONMENT = List.of("PYTORCH_LIBRARY_PATH", "PYTORCH_FLAVOR", "PYTORCH_VERSION",
      "DJL_CACHE_DIR", "LD_LIBRARY_PATH", "EXPRESSO_GPU_ENV");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();

  @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();

  @Option(names = "--max-deliveries", paramLabel = "N", description = "with --bootstrap: the workers' --max-deliveries,"
      + " whose group config is checked (default: ${DEFAULT-VALUE})")
  int maxDeliveries = ShareGroup.DEFAULT_MAX_DELIVERIES;

  @Option(names = "--devices", paramLabel = "D", description = "the devices to check, as a worker's --devices (default: ${DEFAULT-VALUE})")
  String devices = "auto";

  @Override
  public Integer call() {
    if (kafka.given()) {
      return checkCluster();
    }
    precision.apply(spec);
    List<DeviceSlot> ds = UsageChecks.devices(spec, devices);
    PrintWriter out = spec.commandLine().getOut();
    out.println("expresso " + Versions.revision() + ", java " + System.getProperty("java.version") + " ("
        + System.getProperty("java.home") + ")");
    int gpus = DeviceSlot.cudaGpuCount();
    out.println("CUDA: " + (gpus > 0 ? gpus + " GPU(s), CUDA runtime " + cudaVersion() : "no GPU reported by the CUDA driver"));
    out.println("worker devices (" + devices + "): " + String.join(" ", ds.stream().map(DeviceSlot::id).toList()));
    for (String name : DJL_ENVIRONMENT) {
      String v = System.getenv(name);
      out.println("  " + name + "=" + (v == null ? "(unset)" : v));
    }
    int failed = 0;
    EngineState engine = null;
    try {
      engine = NativeEngine.start();
    } catch (RuntimeException | LinkageError e) {
      failed++;
      out.println("engine: FAILED to start: " + e.getClass().getSimpleName() + ": " + firstLine(e));
    }
    if (engine != null) {
      out.printf(Locale.ROOT, "engine: %s (started in %.2f s)%n", engine.text(), engine.startSeconds());
    }
    // what runs, read back from the engine; what is set where it did not start
    out.println("CPU: " + (engine != null ? engine.intraOpThreads() : ThreadPolicy.intraOpThreads())
        + " intra-op thread(s) per evaluation, "
        + "OMP_WAIT_POLICY=" + Optional.ofNullable(NativeEnvironment.get("OMP_WAIT_POLICY")).orElse("(unset)")
        + ", GOMP_SPINCOUNT=" + Optional.ofNullable(NativeEnvironment.get("GOMP_SPINCOUNT")).orElse("(unset)")
        + ", MALLOC_ARENA_MAX=" + Optional.ofNullable(System.getenv("MALLOC_ARENA_MAX"))
            .orElse("(unset: tensor memory spread over glibc's per-thread arenas; scripts/expresso sets 1)"));
    out.println("CPU memory: a pool of " + new io.expresso.engine.MemoryBudget(
        io.expresso.engine.MemoryPool.cpu().total()).text()
        + " (half of the machine's or the container's) shared by the CPU devices; each pair takes what its passes"
        + " need to run as alone (--memory-budget SIZE: that much for every pair instead)");
    out.println("GPU precision: " + GpuPrecision.current().label() + " (" + GpuPrecision.OVERRIDE + "="
        + Optional.ofNullable(NativeEnvironment.get(GpuPrecision.OVERRIDE)).orElse("unset")
        + " in this process; CPU devices always fp32); cuDNN's deterministic algorithms: "
        + (io.expresso.engine.CudnnDeterminism.wanted() ? "on" : "off (-D" + io.expresso.engine.CudnnDeterminism.PROPERTY
            + "=false)"));
    out.println("GPU backward: " + io.expresso.engine.TorchThreadState.status().text());
    out.flush();

    Set<ai.djl.Device> distinct = new LinkedHashSet<>();
    ds.forEach(d -> distinct.add(d.djl()));
    for (ai.djl.Device d : distinct) {
      try {
        DeviceCheck c = DeviceCheck.run(d);
        out.printf(Locale.ROOT, "device %s: a %d-square float32 product in %.3f s, max relative error %.1e against exact%n",
            io.expresso.engine.Devices.name(d), DeviceCheck.SIDE, c.seconds(), c.maxRelativeError());
        if (d.isGpu()) {
          long slots = ds.stream().filter(x -> x.djl().equals(d)).count();
          out.println("GPU memory of " + io.expresso.engine.Devices.name(d) + ": a pool of " + new io.expresso.engine.MemoryBudget(
              io.expresso.engine.MemoryPool.of(d).total()).text() + " (half of the GPU's) shared by its " + slots
              + " slot(s); each pair takes what its passes need to run as alone, a pair that runs out of the GPU's"
              + " memory is rerun once alone on it (--memory-budget SIZE: that much for every pair instead)");
        }
      } catch (RuntimeException | LinkageError e) {
        failed++;
        String why = firstLine(e);
        out.println("device " + io.expresso.engine.Devices.name(d) + ": FAILED: " + e.getClass().getSimpleName() + ": "
            + (why.length() > 300 ? why.substring(0, 300) + "…" : why));
      }
      out.flush();
    }
    Optional<LoadedTorch> torch = LoadedTorch.find();
    if (torch.isPresent()) {
      LoadedTorch t = torch.get();
      out.println("PyTorch loaded: " + t.version() + ", flavour " + t.flavor() + ", " + t.libtorch());
      out.println("DJL JNI loaded: " + t.jni().map(Object::toString).orElse("(not found among the mapped libraries)"));
      if (!t.version().equals(Versions.bundledPytorch())) {
        out.println("  (the jar bundles PyTorch " + Versions.bundledPytorch() + " for the CPU; this host's own runs instead)");
      }
    } else {
      failed++;
      out.println("PyTorch loaded: none (the engine did not load; see the errors above)"
          + (System.getenv("PYTORCH_LIBRARY_PATH") == null ? "; on a GPU host, run scripts/gpu-setup first" : ""));
    }
    out.flush();
    return failed == 0 ? 0 : 1;
  }

  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage() == null ? e : e.getMessage()).lines().findFirst().orElse("");
  }

  /** One line per thing the workers' share group needs from the cluster: ok, LACKS, or FATAL (no task is ever handed out). */
  private int checkCluster() {
    UsageChecks.range(spec, "--max-deliveries", maxDeliveries, 1, ShareGroup.BROKER_MAX_DELIVERY_LIMIT - 1);
    PrintWriter out = spec.commandLine().getOut();
    List<ClusterCheck.Finding> findings = ClusterCheck.run(kafka.clients(spec), ShareGroup.Settings.forWorker(maxDeliveries));
    findings.forEach(out::println);
    out.flush();
    return ClusterCheck.problems(findings).isEmpty() ? 0 : 1;
  }

  private static String cudaVersion() {
    try {
      return ai.djl.util.cuda.CudaUtils.getCudaVersionString();
    } catch (RuntimeException | LinkageError e) {
      return "unknown";
    }
  }
}
