package io.expresso.wl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The registry of WL-family baselines by command-line name. */
public final class WlMethods {

  private static final Map<String, Supplier<PairDistinguisher>> METHODS = new LinkedHashMap<>();

  static {
    METHODS.put("1-wl", OneWl::new);
    METHODS.put("3-wl", TwoFwl::new);
    METHODS.put("4-wl", ThreeFwl::new);
    METHODS.put("spd-wl", SpdWl::new);
    METHODS.put("s3", () -> new SubstructureWl(3));
    METHODS.put("s4", () -> new SubstructureWl(4));
    METHODS.put("n1", () -> new EgoNetWl(1));
    METHODS.put("n2", () -> new EgoNetWl(2));
    METHODS.put("m1", NodeMarkingWl::new);
  }

  private WlMethods() {}

  /** Every valid name, in a fixed order. */
  public static List<String> names() {
    return List.copyOf(METHODS.keySet());
  }

  /**
   * The method called {@code name}.
   *
   * @throws IllegalArgumentException naming the valid methods when {@code name} is unknown
   */
  public static PairDistinguisher byName(String name) {
    Supplier<PairDistinguisher> s = METHODS.get(name);
    if (s == null) {
      throw new IllegalArgumentException(
          "unknown method '" + name + "'; valid methods: " + String.join(", ", METHODS.keySet()));
    }
    return s.get();
  }
}
