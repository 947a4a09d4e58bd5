package io.expresso.runtime;

import io.expresso.engine.LoadedTorch;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Versions recorded in every result's provenance: our code and the libraries that shaped it, as
 * one line of space-separated {@code name/version} tokens, as in a User-Agent header (one string
 * per result is far cheaper to write and read than a map, and JSON needs no escapes for it).
 */
public final class Versions {

  private Versions() {}

  /** Written by Maven at build time (resources filtering; see pom.xml). */
  private static final Properties BUILD = build();

  private static Properties build() {
    Properties p = new Properties();
    try (InputStream in = Versions.class.getResourceAsStream("/io/expresso/expresso-build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // the revision reads "unknown": a result must not fail for want of its provenance
    }
    return p;
  }

  /** A build property, or "unknown" when the build did not fill it in (outside Maven or git). */
  private static String built(String key) {
    String v = BUILD.getProperty(key, "").trim();
    return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
  }

  /** The PyTorch version the build bundles for the CPU (DJL's native library from Maven). */
  public static String bundledPytorch() {
    return built("pytorch");
  }

  /**
   * The code revision this process was built from: the git commit checked out at build time
   * ({@code HEAD}; uncommitted changes are not marked), {@code unknown} outside a git checkout.
   */
  public static String revision() {
    return built("revision");
  }

  /**
   * Our code's and the libraries' versions. {@code pytorch} is the native library this process
   * loaded ({@code 2.11.0+cu130}: a GPU host's own PyTorch may differ from the {@code 2.7.1} the
   * build bundles), or {@code not-loaded} while nothing has needed PyTorch: a worker that never
   * trains does not load it to say so.
   */
  static Map<String, String> all(Optional<LoadedTorch> torch) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("expresso", orDev(Versions.class.getPackage().getImplementationVersion()));
    v.put("djl", built("djl"));
    v.put("pytorch", torch.map(LoadedTorch::text).orElse("not-loaded"));
    v.put("kafka-clients", orDev(org.apache.kafka.common.utils.internals.AppInfoParser.getVersion()));
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
