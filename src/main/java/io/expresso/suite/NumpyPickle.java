package io.expresso.suite;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import net.razorvine.pickle.IObjectConstructor;
import net.razorvine.pickle.Unpickler;

/**
 * Unpickles the payload of a NumPy object array (pickle protocols 2 to 5) with net.razorvine:pickle,
 * which knows Python's built-in types; the NumPy globals such a pickle calls are registered here.
 *
 * <p>NumPy pickles an array as {@code _reconstruct(ndarray, (0,), b'b')} followed by {@code BUILD}
 * with the state {@code (version, shape, dtype, is_fortran, items)}. A {@code numpy.bytes_} or
 * {@code numpy.str_} item pickles as {@code scalar(dtype, raw bytes)}, its dtype as {@code
 * dtype('S3', False, True)} whose {@code BUILD} state carries the byte order. NumPy 1.x writes
 * these globals under {@code numpy.core.multiarray}, NumPy 2.x under {@code numpy._core.multiarray};
 * both are registered. Plain {@code bytes} arrive as {@code byte[]} (at protocol 2 through {@code
 * _codecs.encode}, which razorvine handles) and {@code str} as {@link String}.
 */
final class NumpyPickle {

  static {
    for (String module : List.of("numpy.core.multiarray", "numpy._core.multiarray")) {
      Unpickler.registerConstructor(module, "_reconstruct", args -> new Array());
      Unpickler.registerConstructor(module, "scalar", NumpyPickle::scalar);
    }
    Unpickler.registerConstructor("numpy", "ndarray", args -> new Array());
    Unpickler.registerConstructor("numpy", "dtype", Dtype::new);
  }

  private NumpyPickle() {}

  /**
   * The items of the pickled array that {@code in} holds.
   *
   * @throws IllegalArgumentException if the pickle is malformed or holds something other than a
   *     NumPy array of Python objects
   * @throws IOException if reading fails or the pickle ends early
   */
  static List<?> items(InputStream in) throws IOException {
    Object root;
    try {
      root = new Unpickler().load(in);
    } catch (RuntimeException e) {
      // A malformed pickle surfaces as PickleException or as whatever the unpickler tripped over.
      throw new IllegalArgumentException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
    }
    if (!(root instanceof Array array) || array.items == null) {
      throw new IllegalArgumentException("the pickle does not hold a NumPy array (found "
          + (root == null ? "None" : root.getClass().getSimpleName()) + ")");
    }
    return array.items;
  }

  /** {@code scalar(dtype, raw)}: the raw bytes of one item with its dtype. */
  private static Object scalar(Object[] args) {
    if (args.length != 2 || !(args[0] instanceof Dtype dtype) || !(args[1] instanceof byte[] raw)) {
      throw new IllegalArgumentException("numpy scalar(dtype, bytes) called with " + args.length + " arguments");
    }
    return new Scalar(dtype.descr(), raw);
  }

  /** A NumPy scalar item: its dtype as a descr string ({@code '|S3'}, {@code '<U3'}) and raw bytes. */
  record Scalar(String descr, byte[] raw) {}

  /** What unpickling {@code numpy.ndarray} yields: items arrive through {@code __setstate__}. */
  public static final class Array {
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

  /** What unpickling {@code numpy.dtype} yields: its type string and byte order. */
  public static final class Dtype {
    private final String type;
    private String byteOrder = "|";

    Dtype(Object[] args) {
      this.type = args.length > 0 ? String.valueOf(args[0]) : "?";
    }

    /** The dtype state: (version, byte order, subarray, names, fields, elsize, alignment, flags). */
    public void __setstate__(Object[] state) {
      if (state.length > 1 && state[1] instanceof String order) {
        byteOrder = order;
      }
    }

    /** As an NPY header writes it, e.g. {@code '<U3'}. */
    String descr() {
      return byteOrder + type;
    }

    @Override
    public String toString() {
      return "dtype(" + descr() + ")";
    }
  }
}
