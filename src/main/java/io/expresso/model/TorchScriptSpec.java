package io.expresso.model;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A user's TorchScript module trained like a built-in model: {@code
 * torchscript:<file.pt>[,input=sparse|dense][,features=ones+degree+spd+count-P][,init=auto|reset|saved][,width=W,depth=L]}.
 * The module travels as its bytes and is named by their SHA-256 ({@link #toText} reads
 * {@code torchscript:sha256:<hex>,...}), so a task names exactly one module whatever its file was
 * called. See docs/gnn-evaluation.md, "Your own model".
 *
 * @param module the TorchScript archive ({@code torch.jit.save}'s output)
 * @param sha256 lower-case hex SHA-256 of {@code module}
 * @param input which {@code forward} signature the module takes
 * @param features node-feature columns of the sparse input, in order (dense: ones only)
 * @param init where each pair's initial weights come from
 * @param width the module's hidden width, for the memory estimate only
 * @param depth the module's layer count, for the memory estimate only
 */
public record TorchScriptSpec(byte[] module, String sha256, Input input, List<NodeFeature> features, Init init,
    int width, int depth) implements NetworkSpec {

  /** The prefix that marks a TorchScript spec. */
  public static final String PREFIX = "torchscript:";

  /** The {@code forward} signature a module takes. */
  public enum Input {
    /** {@code forward(x: float[N,F], edge_index: long[2,E], batch: long[N]) -> float[B,d]} (PyTorch Geometric style). */
    SPARSE,
    /** {@code forward(adj: float[B,n,n], mask: bool[B,n]) -> float[B,d]} (PPGN style). */
    DENSE;

    String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where a pair's initial weights come from. */
  public enum Init {
    /**
     * The module's {@code reset_parameters()} under the pair's seed if it has one, else PyTorch's
     * default init of its standard layers under the seed, other parameters as saved ({@link TorchScriptLayers}).
     */
    AUTO,
    /** Always {@code reset_parameters()} under the pair's seed; a module without it is refused. */
    RESET,
    /** The saved weights, the same for every seed. */
    SAVED;

    String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Reads the module a spec names: a file for commands, {@code expresso.models} for workers. */
  @FunctionalInterface
  public interface ModuleSource {
    /**
     * The module's bytes.
     *
     * @param location what the spec wrote after {@code torchscript:}: a file, or {@code sha256:<hex>}
     * @throws IllegalArgumentException naming the location when it cannot be read
     */
    byte[] read(String location);
  }

  public TorchScriptSpec {
    if (module == null || module.length == 0) {
      throw new IllegalArgumentException("torchscript spec needs the module's bytes");
    }
    if (features == null || features.isEmpty()) {
      throw new IllegalArgumentException("torchscript spec needs at least one node feature (ones)");
    }
    features = List.copyOf(features);
    if (input == Input.DENSE && !features.equals(List.of(NodeFeature.ONES))) {
      throw new IllegalArgumentException("torchscript spec: features apply to input=sparse only (the dense"
          + " signature takes the adjacency and the mask), got features=" + featureText(features));
    }
    if (width < 1 || width > 4096 || depth < 1 || depth > 64) {
      throw new IllegalArgumentException("torchscript spec: width must lie in [1, 4096] and depth in [1, 64], got "
          + width + " and " + depth);
    }
  }

  /** True when a feature needs a marked vertex: each graph is then fed as its n marked copies. */
  public boolean marking() {
    return features.stream().anyMatch(NodeFeature::marks);
  }

  /** Files on this machine, relative to the working directory. */
  public static ModuleSource files() {
    return location -> {
      Path p;
      try {
        p = Path.of(location);
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException("torchscript module '" + location + "' is not a file name");
      }
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException("torchscript module " + p + ": no such file");
      }
      try {
        return Files.readAllBytes(p);
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("torchscript module " + p + ": cannot read it: " + e.getMessage());
      }
    };
  }

  /**
   * Parses {@code torchscript:<location>[,key=value...]} and reads the module from {@code modules}.
   *
   * @throws IllegalArgumentException naming the bad part
   */
  public static TorchScriptSpec parse(String text, ModuleSource modules) {
    String body = text.strip().substring(PREFIX.length());
    String[] parts = body.split(",");
    String location = parts[0].strip();
    if (location.isEmpty()) {
      throw new IllegalArgumentException("model spec '" + text + "': expected torchscript:<file.pt>[,key=value...]");
    }
    Input input = Input.SPARSE;
    List<NodeFeature> features = List.of(NodeFeature.ONES);
    Init init = Init.AUTO;
    int width = 32;
    int depth = 4;
    String hash = null;
    for (int i = 1; i < parts.length; i++) {
      String kv = parts[i];
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("model spec '" + text + "': expected key=value, got '" + kv + "'");
      }
      String key = kv.substring(0, eq).strip().toLowerCase(Locale.ROOT);
      String value = kv.substring(eq + 1).strip();
      try {
        switch (key) {
          case "input" -> input = Input.valueOf(value.toUpperCase(Locale.ROOT));
          case "features" -> {
            List<NodeFeature> fs = new ArrayList<>();
            for (String f : value.split("\\+")) {
              fs.add(NodeFeature.parse(f));
            }
            features = fs;
          }
          case "init" -> init = Init.valueOf(value.toUpperCase(Locale.ROOT));
          case "width" -> width = Integer.parseInt(value);
          case "depth" -> depth = Integer.parseInt(value);
          case "sha256" -> hash = value.toLowerCase(Locale.ROOT);
          default -> throw new IllegalArgumentException("model spec '" + text + "': unknown key '" + key
              + "' (known: input, features, init, width, depth)");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("model spec '" + text + "': " + key + " is not a number: '" + value + "'");
      } catch (IllegalArgumentException e) {
        if (e.getMessage() != null && e.getMessage().startsWith("model spec")) {
          throw e;
        }
        throw new IllegalArgumentException("model spec '" + text + "': bad " + key + " '" + value + "' ("
            + switch (key) {
              case "input" -> "expected sparse or dense";
              case "init" -> "expected auto, reset or saved";
              default -> e.getMessage();
            } + ")");
      }
    }
    byte[] module = modules.read(location);
    String digest = sha256(module);
    if (location.toLowerCase(Locale.ROOT).startsWith("sha256:") && !location.substring(7).equalsIgnoreCase(digest)) {
      throw new IllegalArgumentException("torchscript module " + location + ": the bytes read have SHA-256 " + digest);
    }
    if (hash != null && !hash.equals(digest)) {
      throw new IllegalArgumentException("torchscript module " + location + ": SHA-256 is " + digest + ", the spec says " + hash);
    }
    return new TorchScriptSpec(module, digest, input, features, init, width, depth);
  }

  /** Lower-case hex SHA-256 of {@code bytes}. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /** The location of this module in {@code expresso.models}: {@code sha256:<hex>}. */
  public String location() {
    return "sha256:" + sha256;
  }

  @Override
  public String family() {
    return "torchscript";
  }

  @Override
  public String toText() {
    return PREFIX + location() + ",input=" + input.cliName() + ",features=" + featureText(features) + ",init="
        + init.cliName() + ",width=" + width + ",depth=" + depth;
  }

  private static String featureText(List<NodeFeature> fs) {
    return fs.stream().map(NodeFeature::name).collect(Collectors.joining("+"));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TorchScriptSpec t && t.toText().equals(toText());
  }

  @Override
  public int hashCode() {
    return toText().hashCode();
  }

  @Override
  public String toString() {
    return toText();
  }
}
