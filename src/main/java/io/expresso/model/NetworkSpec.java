package io.expresso.model;

/**
 * What {@link GraphModel#create} builds: a built-in architecture ({@link ModelSpec}, e.g.
 * {@code gin:layers=4}) or a user's TorchScript module ({@link TorchScriptSpec},
 * {@code torchscript:gin.pt,input=sparse}). Every command and task that takes a GNN names it in
 * this text form.
 */
public sealed interface NetworkSpec permits ModelSpec, TorchScriptSpec {

  /** The canonical text form (a TorchScript module by its SHA-256, never by its path). */
  String toText();

  /** A short name for file names and tables: the architecture's name, or {@code torchscript}. */
  String family();

  /** Laplacian positional encodings fed to the network (built-in models' {@code pe=K}); 0 for none. */
  default int pe() {
    return 0;
  }

  /**
   * One-hot node-label input columns (built-in GIN's {@code node-labels=K}: a vertex with label index
   * i gets a 1 in column i); 0 for a model that reads structure only.
   */
  default int nodeLabels() {
    return 0;
  }

  /** True for text that names a TorchScript module ({@code torchscript:...}). */
  static boolean isTorchScript(String text) {
    return text != null && text.strip().toLowerCase(java.util.Locale.ROOT).startsWith(TorchScriptSpec.PREFIX);
  }

  /**
   * Parses a built-in spec or a TorchScript spec; {@code modules} reads the module a TorchScript
   * spec names (a file for commands, {@code expresso.models} for workers).
   *
   * @throws IllegalArgumentException naming the bad part
   */
  static NetworkSpec parse(String text, TorchScriptSpec.ModuleSource modules) {
    return isTorchScript(text) ? TorchScriptSpec.parse(text, modules) : ModelSpec.parse(text);
  }
}
