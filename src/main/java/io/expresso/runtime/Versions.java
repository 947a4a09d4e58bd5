package io.expresso.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/** Versions recorded in every result's provenance: our code and the libraries that shaped it. */
final class Versions {

  private Versions() {}

  static Map<String, String> all() {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("expresso", orDev(Versions.class.getPackage().getImplementationVersion()));
    v.put("kafka-clients", orDev(org.apache.kafka.common.utils.AppInfoParser.getVersion()));
    v.put("protobuf", com.google.protobuf.RuntimeVersion.MAJOR + "." + com.google.protobuf.RuntimeVersion.MINOR
        + "." + com.google.protobuf.RuntimeVersion.PATCH);
    v.put("java", System.getProperty("java.version"));
    return v;
  }

  private static String orDev(String s) {
    return s == null ? "dev" : s;
  }
}
