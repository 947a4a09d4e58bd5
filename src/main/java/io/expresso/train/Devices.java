package io.expresso.train;

import ai.djl.Device;

/** Explicit device names: {@code cpu} or {@code gpu:N}; nothing assumes a GPU exists. */
public final class Devices {

  private Devices() {}

  public static Device parse(String name) {
    if (name == null || name.equals("cpu")) {
      return Device.cpu();
    }
    if (name.matches("gpu:\\d+")) {
      return Device.gpu(Integer.parseInt(name.substring(4)));
    }
    throw new IllegalArgumentException("unknown device '" + name + "' (expected cpu or gpu:N)");
  }
}
