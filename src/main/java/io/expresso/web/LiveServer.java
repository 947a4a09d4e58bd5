package io.expresso.web;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.expresso.metrics.Metrics;
import io.expresso.metrics.MetricsRoute;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.marshalling.sse.EventStreamMarshalling;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.sse.ServerSentEvent;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The HTTP server of {@code up} and of workers: {@code /metrics} always; with a {@link LiveState},
 * also the live page ({@code /}), its JSON snapshot ({@code /api/state}), the SSE stream
 * ({@code /events}, one {@code state} event per change, checked every {@value #PUSH_MILLIS} ms),
 * {@code /health} (200 while the readers behind the page are current, 503 with which are not)
 * and Chart.js from its WebJar ({@code /webjars/...}).
 */
public final class LiveServer {

  static final long PUSH_MILLIS = 250;

  private LiveServer() {}

  /** Binds {@code /metrics} only (a worker without a live page). Port 0 picks a free port. */
  public static CompletionStage<ServerBinding> metricsOnly(ClassicActorSystemProvider system,
      String host, int port, Metrics metrics) {
    return Http.get(system.classicSystem()).newServerAt(host, port).bind(MetricsRoute.of(metrics));
  }

  /** Binds the live page and {@code /metrics}. Port 0 picks a free port. */
  public static CompletionStage<ServerBinding> start(ClassicActorSystemProvider system,
      String host, int port, Metrics metrics, LiveState state) {
    return Http.get(system.classicSystem()).newServerAt(host, port).bind(routes(metrics, state));
  }

  static Route routes(Metrics metrics, LiveState state) {
    return concat(
        MetricsRoute.of(metrics),
        pathSingleSlash(() -> get(() -> getFromResource("web/index.html", ContentTypes.TEXT_HTML_UTF8))),
        pathPrefix("static", () -> get(() -> getFromResourceDirectory("web"))),
        pathPrefix("webjars", () -> get(() -> getFromResourceDirectory("META-INF/resources/webjars"))),
        path(PathMatchers.segment("api").slash("state"), () -> get(() -> complete(
            HttpEntities.create(ContentTypes.APPLICATION_JSON,
                state.json(System.currentTimeMillis()))))),
        path("health", () -> get(() -> complete(
            state.current() ? org.apache.pekko.http.javadsl.model.StatusCodes.OK
                : org.apache.pekko.http.javadsl.model.StatusCodes.SERVICE_UNAVAILABLE,
            HttpEntities.create(ContentTypes.APPLICATION_JSON, state.healthJson())))),
        path("events", () -> get(() ->
            completeOK(events(state), EventStreamMarshalling.toEventStream()))));
  }

  /** One SSE event per state version, plus heartbeats so proxies keep the stream open. */
  static Source<ServerSentEvent, NotUsed> events(LiveState state) {
    return Source.tick(Duration.ZERO, Duration.ofMillis(PUSH_MILLIS), "tick")
        .statefulMapConcat(() -> {
          long[] sent = {-1};
          return tick -> {
            long v = state.version();
            if (v == sent[0]) {
              return List.<ServerSentEvent>of();
            }
            sent[0] = v;
            return List.of(ServerSentEvent.create(state.json(System.currentTimeMillis()), "state"));
          };
        })
        .keepAlive(Duration.ofSeconds(15), ServerSentEvent::heartbeat)
        .mapMaterializedValue(cancellable -> NotUsed.getInstance());
  }
}
