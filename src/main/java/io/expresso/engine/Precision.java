package io.expresso.engine;

import java.util.Locale;

/**
 * The arithmetic float32 work runs at on a GPU. CPU devices always compute in full fp32.
 *
 * <p>TF32 keeps 10 of fp32's 23 mantissa bits inside cuBLAS and cuDNN. On an H200 it moved
 * Hotelling's T² across the threshold for 7 of BREC's 50 simple regular pairs under PPGN (43 of 50
 * against 50 on the CPU; docs/gnn-evaluation.md), so verdicts would depend on the device: full fp32
 * is the default, TF32 an explicit opt-in for speed.
 */
public enum Precision {
  /** Full IEEE fp32 everywhere: TF32 off in cuBLAS and cuDNN. The default. */
  FP32("fp32"),
  /**
   * TF32 where PyTorch allows it by default: cuDNN convolutions (cuBLAS matmuls stay fp32, as
   * PyTorch leaves them). Faster on Ampere and later GPUs; verdicts may differ from the CPU's.
   */
  TF32("tf32");

  private final String label;

  Precision(String label) {
    this.label = label;
  }

  /** {@code fp32} or {@code tf32}, as options and provenance write it. */
  public String label() {
    return label;
  }

  /**
   * Reads {@code fp32} or {@code tf32} (any case).
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Precision parse(String text) {
    String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    for (Precision p : values()) {
      if (p.label.equals(s)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown precision '" + text + "'; expected fp32 (the default) or tf32");
  }
}
