package io.expresso.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The standard PyTorch layers ({@code torch.nn.Linear}, convolutions, norms, embeddings,
 * recurrent layers) inside a TorchScript archive, by their attribute path, read from the
 * archive's own code: {@code data.pkl} names the root class, and each class in {@code code/}
 * declares its submodules' classes ({@code lin : __torch__.torch.nn.modules.linear.Linear},
 * {@code __annotations__["0"] = …} in containers). So a module without {@code reset_parameters}
 * can still get PyTorch's default initialisation per seed ({@link TorchScriptBlock}).
 */
final class TorchScriptLayers {

  /** How PyTorch's {@code reset_parameters} initialises a standard layer's parameters. */
  enum Kind {
    /** Linear and convolutions: kaiming_uniform(a=√5) weight = U(±1/√fan_in), bias U(±1/√fan_in). */
    FAN_IN,
    /** Batch, layer, group and instance norm: weight 1, bias 0. */
    NORM,
    /** Embedding: N(0, 1), the padding row 0. */
    EMBEDDING,
    /** RNN, GRU, LSTM and their cells: every parameter U(±1/√hidden_size). */
    RECURRENT
  }

  /** A standard layer: its attribute path ({@code mlps.0.lin1}), class name and constants. */
  record Layer(String path, String type, Kind kind, Map<String, String> constants) {}

  private static final Map<String, Kind> KINDS = new HashMap<>();

  static {
    for (String t : List.of("Linear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
        "ConvTranspose3d")) {
      KINDS.put(t, Kind.FAN_IN);
    }
    for (String t : List.of("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm1d",
        "InstanceNorm2d", "InstanceNorm3d")) {
      KINDS.put(t, Kind.NORM);
    }
    KINDS.put("Embedding", Kind.EMBEDDING);
    for (String t : List.of("RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell")) {
      KINDS.put(t, Kind.RECURRENT);
    }
  }

  /** {@code __torch__.torch.nn.modules.<file>[.___torch_mangle_N].<Class>}: a class of torch.nn. */
  private static final Pattern STANDARD =
      Pattern.compile("__torch__\\.torch\\.nn\\.modules\\.\\w+(?:\\.___torch_mangle_\\d+)?\\.(\\w+)");
  private static final Pattern CLASS = Pattern.compile("^class (\\w+)\\(Module\\):");
  private static final Pattern ATTRIBUTE = Pattern.compile("^  (\\w+) : (__torch__\\.[\\w.]+)\\s*$");
  private static final Pattern ANNOTATION = Pattern.compile("^  __annotations__\\[\"([^\"]+)\"\\] = (__torch__\\.[\\w.]+)\\s*$");
  private static final Pattern CONSTANT = Pattern.compile("^  (\\w+) : Final\\[[^=]*\\] = (.+?)\\s*$");

  private TorchScriptLayers() {}

  /**
   * The standard layers of the archive's module, in attribute order; empty when the archive's
   * code cannot be read this way (then nothing is re-initialised).
   */
  static List<Layer> read(byte[] archive) {
    Map<String, ClassCode> classes = new HashMap<>();
    String root = null;
    // torch.jit.save writes stored entries with data descriptors, which ZipInputStream refuses: read it as a file
    Path file = null;
    try {
      file = Files.createTempFile("expresso-module", ".pt");
      Files.write(file, archive);
      try (ZipFile zip = new ZipFile(file.toFile())) {
        for (ZipEntry e : Collections.list(zip.entries())) {
          String name = e.getName();
          int code = name.indexOf("/code/__torch__");
          if (code >= 0 && name.endsWith(".py")) {
            String module = name.substring(code + "/code/".length(), name.length() - ".py".length()).replace('/', '.');
            try (InputStream in = zip.getInputStream(e)) {
              parse(module, new String(in.readAllBytes(), StandardCharsets.UTF_8), classes);
            }
          } else if (name.endsWith("/data.pkl") && name.indexOf('/') == name.length() - "/data.pkl".length()) {
            try (InputStream in = zip.getInputStream(e)) {
              root = rootClass(in.readNBytes(512));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException ignored) {
          // a temporary file left behind is harmless
        }
      }
    }
    List<Layer> layers = new ArrayList<>();
    if (root != null) {
      walk("", root, classes, layers, 0);
    }
    return layers;
  }

  /** torch.jit.save pickles the root object first: protocol 2, GLOBAL 'module\nname\n'. */
  private static String rootClass(byte[] pickle) {
    if (pickle.length < 4 || (pickle[0] & 0xff) != 0x80 || pickle[2] != 'c') {
      return null;
    }
    String text = new String(pickle, 3, Math.min(pickle.length - 3, 512), StandardCharsets.ISO_8859_1);
    String[] parts = text.split("\n", 3);
    return parts.length < 3 ? null : parts[0] + "." + parts[1];
  }

  private record ClassCode(Map<String, String> submodules, Map<String, String> constants) {}

  private static void parse(String module, String source, Map<String, ClassCode> classes) {
    ClassCode current = null;
    for (String line : source.split("\n")) {
      Matcher c = CLASS.matcher(line);
      if (c.find()) {
        current = new ClassCode(new LinkedHashMap<>(), new LinkedHashMap<>());
        classes.put(module + "." + c.group(1), current);
        continue;
      }
      if (current == null || !line.startsWith("  ") || line.startsWith("   ")) {
        if (!line.startsWith(" ") && !line.isBlank()) {
          current = null;
        }
        continue;
      }
      Matcher a = ATTRIBUTE.matcher(line);
      Matcher n = ANNOTATION.matcher(line);
      Matcher k = CONSTANT.matcher(line);
      if (a.find()) {
        current.submodules().put(a.group(1), a.group(2));
      } else if (n.find()) {
        current.submodules().put(n.group(1), n.group(2));
      } else if (k.find()) {
        current.constants().put(k.group(1), k.group(2));
      }
    }
  }

  private static void walk(String path, String type, Map<String, ClassCode> classes, List<Layer> out, int depth) {
    ClassCode code = classes.get(type);
    Matcher standard = STANDARD.matcher(type);
    if (standard.matches() && KINDS.containsKey(standard.group(1))) {
      Map<String, String> constants = code == null ? Map.of() : code.constants();
      out.add(new Layer(path, standard.group(1), KINDS.get(standard.group(1)), constants));
      return;
    }
    if (code == null || depth > 64) {
      return;
    }
    for (Map.Entry<String, String> sub : code.submodules().entrySet()) {
      walk(path.isEmpty() ? sub.getKey() : path + "." + sub.getKey(), sub.getValue(), classes, out, depth + 1);
    }
  }

  /** A constant the layer's code declares ({@code padding_idx : Final[Optional[int]] = 0}), if an integer. */
  static Optional<Long> intConstant(Layer layer, String name) {
    String v = layer.constants().get(name);
    if (v == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(v));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
