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
    return metrics(host, port, port, metrics);
  }

  /**
   * Serves {@code /metrics} on host and the first free port of {@code first..last}: several workers
   * sharing one network namespace (containers on the host's network) each find their own, from a
   * range a scraper lists.
   */
  public static HttpEndpoint metrics(String host, int first, int last, Metrics metrics) {
    ActorSystem system = ActorSystem.create("expresso-metrics", config());
    for (int port = first; ; port++) {
      int p = port;
      try {
        return bind(system, host, p, () -> LiveServer.metricsOnly(system, host, p, metrics));
      } catch (IllegalStateException e) {
        if (p >= last || !inUse(e)) {
          system.terminate();
          throw p > first && inUse(e)
              ? new IllegalStateException("cannot serve HTTP on " + host + ": every port of " + first + "-" + last + " is in use", e)
              : e;
        }
      }
    }
  }

  /** Serves the live page of {@code state} and {@code /metrics} on host:port. */
  public static HttpEndpoint live(String host, int port, Metrics metrics, LiveState state) {
    ActorSystem system = ActorSystem.create("expresso-web", config());
    try {
      return bind(system, host, port, () -> LiveServer.start(system, host, port, metrics, state));
    } catch (IllegalStateException e) {
      system.terminate();
      throw e;
    }
  }

  private static HttpEndpoint bind(ActorSystem system, String host, int port,
      java.util.function.Supplier<java.util.concurrent.CompletionStage<ServerBinding>> bind) {
    try {
      return new HttpEndpoint(system, bind.get().toCompletableFuture().get(30, TimeUnit.SECONDS));
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException("cannot serve HTTP on " + host + ":" + port + ": " + cause.getMessage(), cause);
    }
  }

  /** Whether a failed bind found its port taken (then the next of a range may do). */
  private static boolean inUse(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException || String.valueOf(t.getMessage()).contains("in use")) {
        return true;
      }
    }
    return false;
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
