package io.expresso.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Versions recorded in every result's provenance: our code and the libraries that shaped it, as
 * one line of space-separated {@code name/version} tokens, as in a User-Agent header (one string
 * per result is far cheaper to write and read than a map, and JSON needs no escapes for it).
 */
public final class Versions {

  private Versions() {}

  static Map<String, String> all() {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("expresso", orDev(Versions.class.getPackage().getImplementationVersion()));
    v.put("kafka-clients", orDev(org.apache.kafka.common.utils.AppInfoParser.getVersion()));
    v.put("pekko", org.apache.pekko.Version.current());
    v.put("protobuf", com.google.protobuf.RuntimeVersion.MAJOR + "." + com.google.protobuf.RuntimeVersion.MINOR
        + "." + com.google.protobuf.RuntimeVersion.PATCH);
    v.put("java", System.getProperty("java.version"));
    return v;
  }

  /** {@code versions} as the provenance line. */
  static String line(Map<String, String> versions) {
    StringBuilder sb = new StringBuilder();
    versions.forEach((k, val) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('/').append(val));
    return sb.toString();
  }

  /** A provenance line back as a map (name up to the first {@code /}); tokens without one are skipped. */
  public static Map<String, String> parse(String line) {
    Map<String, String> v = new LinkedHashMap<>();
    for (String token : line.trim().split("\\s+")) {
      int slash = token.indexOf('/');
      if (slash > 0) {
        v.put(token.substring(0, slash), token.substring(slash + 1));
      }
    }
    return v;
  }

  private static String orDev(String s) {
    return s == null ? "dev" : s;
  }
}
