package io.expresso.web;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.expresso.metrics.Metrics;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.http.javadsl.ServerBinding;

/**
 * A bound HTTP server with its own small actor system (kept apart from a worker's, whose
 * dispatchers belong to its devices): {@code /metrics} alone, or the live page as well.
 */
public final class HttpEndpoint implements AutoCloseable {

  private final ActorSystem system;
  private final ServerBinding binding;

  private HttpEndpoint(ActorSystem system, ServerBinding binding) {
    this.system = system;
    this.binding = binding;
  }

  /** Serves {@code /metrics} on host:port (port 0 = any free port). */
  public static HttpEndpoint metrics(String host, int port, Metrics metrics) {
    ActorSystem system = ActorSystem.create("expresso-metrics", config());
    return bind(system, host, port, () -> LiveServer.metricsOnly(system, host, port, metrics));
  }

  /** Serves the live page of {@code state} and {@code /metrics} on host:port. */
  public static HttpEndpoint live(String host, int port, Metrics metrics, LiveState state) {
    ActorSystem system = ActorSystem.create("expresso-web", config());
    return bind(system, host, port, () -> LiveServer.start(system, host, port, metrics, state));
  }

  private static HttpEndpoint bind(ActorSystem system, String host, int port,
      java.util.function.Supplier<java.util.concurrent.CompletionStage<ServerBinding>> bind) {
    try {
      return new HttpEndpoint(system, bind.get().toCompletableFuture().get(30, TimeUnit.SECONDS));
    } catch (Exception e) {
      system.terminate();
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException("cannot serve HTTP on " + host + ":" + port + ": " + cause.getMessage(), cause);
    }
  }

  /** Pekko logs through SLF4J (simplelogger.properties); a failed bind is reported once, by us. */
  private static Config config() {
    return ConfigFactory.parseString("""
        pekko {
          loglevel = WARNING
          stdout-loglevel = OFF
          loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
          logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
        }
        """).withFallback(ConfigFactory.load());
  }

  /** The bound port (the chosen one when 0 was asked for). */
  public int port() {
    return binding.localAddress().getPort();
  }

  @Override
  public void close() {
    try {
      binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // best effort: the actor system goes next
    }
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      Thread.currentThread().interrupt();
    }
  }
}
