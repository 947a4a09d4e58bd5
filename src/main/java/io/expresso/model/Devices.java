package io.expresso.model;

import ai.djl.Device;

/** Parses explicit device names; nothing here assumes a GPU exists. */
public final class Devices {

  private Devices() {}

  /**
   * {@code cpu} or {@code gpu:N}.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static Device parse(String name) {
    String s = name == null ? "" : name.trim();
    if (s.equals("cpu")) {
      return Device.cpu();
    }
    if (s.matches("gpu:\\d{1,3}")) {
      return Device.gpu(Integer.parseInt(s.substring(4)));
    }
    throw new IllegalArgumentException("unknown device '" + name + "'; expected cpu or gpu:N");
  }

  /** The name {@link #parse} accepts for this device. */
  public static String name(Device d) {
    return d.isGpu() ? "gpu:" + d.getDeviceId() : "cpu";
  }
}
