package io.expresso.runtime.kafka;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * How every Kafka client of Expresso reaches the cluster: the bootstrap servers plus the standard
 * Java client properties a secured cluster needs ({@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}, ...), read from a properties file ({@code --kafka-config}, or the file named by
 * {@value #CONFIG_ENV}). Every consumer, producer and admin client starts from {@link #consumer},
 * {@link #producer} or {@link #admin} and then sets what it needs for correctness (isolation level,
 * transactional id, ...), so those settings win over the same keys in the file.
 */
public record KafkaClients(String bootstrap, Map<String, String> extra) {

  /** The environment variable naming a client properties file, for containers. */
  public static final String CONFIG_ENV = "EXPRESSO_KAFKA_CONFIG";

  /**
   * @param bootstrap the bootstrap servers ({@code host:port,...})
   * @param extra client properties beyond the bootstrap servers (secrets included: never print them)
   * @throws IllegalArgumentException without bootstrap servers; a {@link ConfigException} naming the
   *     key for a value no client would accept (an unknown security protocol, a bad number)
   */
  public KafkaClients {
    if (bootstrap == null || bootstrap.isBlank()) {
      throw new IllegalArgumentException("no Kafka bootstrap servers given");
    }
    bootstrap = bootstrap.trim();
    Map<String, String> copy = new TreeMap<>(extra);
    copy.remove(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG); // the bootstrap component is the one source
    extra = Collections.unmodifiableMap(copy);
    new AdminClientConfig(base(bootstrap, extra)); // parses every known key now, not at the first connection
  }

  /** A plaintext cluster without authentication (the embedded broker, local tests). */
  public static KafkaClients of(String bootstrap) {
    return new KafkaClients(bootstrap, Map.of());
  }

  /**
   * The clients a command was told to use: the properties file {@code configFile}, else the one
   * {@value #CONFIG_ENV} names in {@code env}, else none; the bootstrap servers are
   * {@code bootstrap}, else the file's {@code bootstrap.servers}.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read or holds invalid values,
   *     or when no bootstrap servers are given anywhere
   */
  public static KafkaClients resolve(String bootstrap, Path configFile, Function<String, String> env) {
    Path file = configFile;
    String source = "--kafka-config " + configFile;
    if (file == null) {
      String fromEnv = env.apply(CONFIG_ENV);
      if (fromEnv != null && !fromEnv.isBlank()) {
        file = Path.of(fromEnv.trim());
        source = CONFIG_ENV + "=" + fromEnv.trim();
      }
    }
    Map<String, String> props = file == null ? Map.of() : read(file, source);
    String b = bootstrap != null ? bootstrap : props.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    if (b == null || b.isBlank()) {
      throw new IllegalArgumentException("missing --bootstrap (or bootstrap.servers in the --kafka-config file)");
    }
    try {
      return new KafkaClients(b, props);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, String> read(Path file, String source) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + source + ": " + e, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + " is not a properties file: " + e.getMessage(), e);
    }
    Map<String, String> m = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return m;
  }

  /** Where a consumer starts: bootstrap and the cluster's client settings. */
  public Properties consumer() {
    return base();
  }

  /** Where a producer starts: bootstrap and the cluster's client settings. */
  public Properties producer() {
    return base();
  }

  /** Where an admin client starts: bootstrap and the cluster's client settings. */
  public Properties admin() {
    return base();
  }

  private Properties base() {
    return base(bootstrap, extra);
  }

  private static Properties base(String bootstrap, Map<String, String> extra) {
    Properties p = new Properties();
    p.putAll(extra);
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return p;
  }

  /** Where to look when the cluster does not answer or refuses these clients: for error messages. */
  public String describe() {
    String protocol = extra.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT");
    String mechanism = extra.get(SaslConfigs.SASL_MECHANISM);
    return bootstrap + " (security.protocol " + protocol
        + (mechanism != null && protocol.toUpperCase(Locale.ROOT).startsWith("SASL") ? ", sasl.mechanism " + mechanism : "")
        + ")";
  }

  /** Bootstrap and the keys set, never their values (a JAAS config holds a password). */
  @Override
  public String toString() {
    return "KafkaClients[" + bootstrap + (extra.isEmpty() ? "" : ", " + extra.keySet()) + "]";
  }
}
