package io.expresso.cli;

import io.expresso.engine.GpuPrecision;
import io.expresso.engine.Precision;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --precision}: the float32 arithmetic of a command's GPU devices (CPU devices are always fp32). */
final class PrecisionOption {

  @Option(names = "--precision", paramLabel = "fp32|tf32", description = "float32 arithmetic on GPUs: fp32 (default:"
      + " full precision, TF32 off in cuBLAS and cuDNN, the CPU's verdicts) or tf32 (faster on Ampere and later GPUs;"
      + " verdicts may differ); recorded in every result")
  String precision = Precision.FP32.label();

  /** Applies the choice to this process before any GPU device exists; returns it. */
  Precision apply(CommandSpec spec) {
    Precision p;
    try {
      p = Precision.parse(precision);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--precision: " + e.getMessage());
    }
    GpuPrecision.choose(p);
    return p;
  }
}
