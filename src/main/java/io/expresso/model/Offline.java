package io.expresso.model;

/** Keeps DJL from downloading anything at run time: the native library comes from Maven Central. */
public final class Offline {

  private Offline() {}

  /** Sets {@code ai.djl.offline=true} unless the user chose otherwise; call before DJL loads. */
  public static void ensure() {
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
  }
}
