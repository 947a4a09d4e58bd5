package io.expresso.suite;

import io.expresso.graph.GraphFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.razorvine.pickle.IObjectConstructor;
import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;

/**
 * Reads a one-dimensional NumPy object array of byte strings from a {@code .npy} file, as
 * {@code np.save(path, array, allow_pickle=True)} writes it (BREC's {@code brec_v3.npy}).
 *
 * <p>The header is parsed per the NPY format specification (magic, version, little-endian header
 * length, a Python dict literal with {@code descr}, {@code fortran_order}, {@code shape}); the
 * payload of an object array is a pickle, read with net.razorvine:pickle. NumPy pickles an array
 * as {@code _reconstruct(ndarray, (0,), b'b')} followed by {@code BUILD} with the state tuple
 * {@code (version, shape, dtype, is_fortran, items)}; both NumPy 1.x ({@code numpy.core}) and 2.x
 * ({@code numpy._core}) module names are registered.
 */
public final class NpyObjectArray {

  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

  static {
    IObjectConstructor reconstruct = args -> new PickledArray();
    Unpickler.registerConstructor("numpy.core.multiarray", "_reconstruct", reconstruct);
    Unpickler.registerConstructor("numpy._core.multiarray", "_reconstruct", reconstruct);
    Unpickler.registerConstructor("numpy", "ndarray", args -> new PickledArray());
    Unpickler.registerConstructor("numpy", "dtype", PickledDtype::new);
  }

  private NpyObjectArray() {}

  /**
   * The array's items as byte strings (Python {@code str} items are encoded as Latin-1).
   *
   * @throws GraphFormatException naming the file when it is not an NPY object array of strings
   */
  public static List<byte[]> readByteStrings(Path file) throws IOException {
    String name = file.getFileName().toString();
    try (InputStream in = Files.newInputStream(file)) {
      Header header = readHeader(in, name);
      if (!header.descr.equals("|O")) {
        throw new GraphFormatException(name + ": NPY dtype is '" + header.descr
            + "', expected an object array ('|O') of graph6 byte strings");
      }
      if (header.shape.length != 1) {
        throw new GraphFormatException(name + ": NPY array has " + header.shape.length
            + " dimensions, expected 1");
      }
      Object root;
      try {
        root = new Unpickler().load(in);
      } catch (PickleException | ClassCastException | IllegalStateException | IOException e) {
        throw new GraphFormatException(name + ": cannot unpickle the NPY object array: " + e.getMessage(), e);
      }
      if (!(root instanceof PickledArray array) || array.items == null) {
        throw new GraphFormatException(name + ": the pickle does not hold a NumPy array (found "
            + (root == null ? "None" : root.getClass().getSimpleName()) + ")");
      }
      if (array.items.size() != header.shape[0]) {
        throw new GraphFormatException(name + ": NPY header says " + header.shape[0]
            + " entries, the pickled array holds " + array.items.size());
      }
      List<byte[]> out = new ArrayList<>(array.items.size());
      for (int i = 0; i < array.items.size(); i++) {
        Object item = array.items.get(i);
        if (item instanceof byte[] bytes) {
          out.add(bytes);
        } else if (item instanceof String s) {
          out.add(s.getBytes(StandardCharsets.ISO_8859_1));
        } else {
          throw new GraphFormatException(name + " entry " + i + ": expected a byte string, found "
              + (item == null ? "None" : item.getClass().getSimpleName()));
        }
      }
      return out;
    }
  }

  /** The NPY header fields that matter here. */
  record Header(String descr, boolean fortranOrder, long[] shape) {}

  static Header readHeader(InputStream in, String name) throws IOException {
    byte[] magic = in.readNBytes(MAGIC.length);
    for (int i = 0; i < MAGIC.length; i++) {
      if (magic.length != MAGIC.length || magic[i] != MAGIC[i]) {
        throw new GraphFormatException(name + ": not an NPY file (missing the \\x93NUMPY magic)");
      }
    }
    byte[] version = in.readNBytes(2);
    if (version.length != 2) {
      throw new GraphFormatException(name + ": NPY file ends inside its version");
    }
    int major = version[0];
    int lengthBytes = switch (major) {
      case 1 -> 2;
      case 2, 3 -> 4;
      default -> throw new GraphFormatException(name + ": unsupported NPY format version " + major + "." + version[1]);
    };
    byte[] len = in.readNBytes(lengthBytes);
    if (len.length != lengthBytes) {
      throw new GraphFormatException(name + ": NPY file ends inside its header length");
    }
    long headerLength = 0;
    for (int i = lengthBytes - 1; i >= 0; i--) {
      headerLength = (headerLength << 8) | (len[i] & 0xff);
    }
    if (headerLength > 1 << 20) {
      throw new GraphFormatException(name + ": NPY header length " + headerLength + " is implausible");
    }
    byte[] text = in.readNBytes((int) headerLength);
    if (text.length != headerLength) {
      throw new GraphFormatException(name + ": NPY file ends inside its header");
    }
    String dict = new String(text, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    try {
      Map<String, Object> fields = new PythonLiteral(dict).dict();
      Object descr = fields.get("descr");
      Object fortran = fields.get("fortran_order");
      Object shape = fields.get("shape");
      if (!(descr instanceof String d) || !(fortran instanceof Boolean f) || !(shape instanceof long[] s)) {
        throw new IllegalArgumentException("needs 'descr' (string), 'fortran_order' (bool) and 'shape' (tuple), found " + dict.strip());
      }
      return new Header(d, f, s);
    } catch (IllegalArgumentException e) {
      throw new GraphFormatException(name + ": bad NPY header: " + e.getMessage(), e);
    }
  }

  /** What unpickling {@code numpy.ndarray} yields: items arrive through {@code __setstate__}. */
  public static final class PickledArray {
    private List<?> items;

    /** NumPy's array state: (version, shape, dtype, is_fortran, raw data or list of objects). */
    public void __setstate__(Object[] state) {
      if (state.length != 5) {
        throw new IllegalStateException("ndarray state has " + state.length + " fields, expected 5");
      }
      if (!(state[4] instanceof List<?> list)) {
        throw new IllegalStateException("ndarray holds raw data, not Python objects");
      }
      items = list;
    }
  }

  /** What unpickling {@code numpy.dtype} yields; only the type string is kept. */
  public static final class PickledDtype {
    private final String type;

    PickledDtype(Object[] args) {
      this.type = args.length > 0 ? String.valueOf(args[0]) : "?";
    }

    public void __setstate__(Object[] state) {
      // Byte order, field names and flags: irrelevant for an object array.
    }

    @Override
    public String toString() {
      return "dtype(" + type + ")";
    }
  }
}
