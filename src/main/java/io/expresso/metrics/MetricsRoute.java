package io.expresso.metrics;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.server.Route;

/** The {@code GET /metrics} route: the Prometheus text exposition of one {@link Metrics}. */
public final class MetricsRoute {

  /** {@code text/plain; version=0.0.4; charset=utf-8}, what Prometheus expects. */
  private static final ContentType TEXT_004 =
      ContentTypes.parse("text/plain; version=0.0.4; charset=utf-8");

  private MetricsRoute() {}

  public static Route of(Metrics metrics) {
    return path("metrics", () -> get(() ->
        complete(HttpEntities.create(TEXT_004,
            metrics.scrape().getBytes(java.nio.charset.StandardCharsets.UTF_8)))));
  }
}
