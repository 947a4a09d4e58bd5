package io.expresso.web;

import java.util.List;
import io.expresso.runtime.kafka.Topics;
import io.expresso.metrics.LagMonitor;
import io.expresso.metrics.Metrics;
import io.expresso.metrics.ResultMetricsListener;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import java.time.Duration;

/**
 * What {@code up} and {@code watch} serve next to an aggregator: the live page and
 * {@code /metrics}, fed by the aggregator's results ({@link #attach}), the published-task counts
 * (progress), the epochs of running train tasks ({@code expresso.progress}) and the workers'
 * consumer lag.
 */
public final class LiveService implements AutoCloseable {

  /** A reader that has not read from the broker for this long is reported as behind on {@code /health}. */
  static final Duration STALE_AFTER = Duration.ofSeconds(30);

  private final KafkaClients clients;
  private final Metrics metrics;
  private final LiveState state = new LiveState();
  private final TaskCounter counter;
  private final ProgressReader progress;
  private final LagMonitor lag;
  private final HttpEndpoint http;

  private LiveService(KafkaClients clients, String host, int port, Metrics metrics) {
    this.clients = clients;
    this.metrics = metrics;
    this.http = HttpEndpoint.live(host, port, metrics, state);
    this.counter = new TaskCounter(clients, state);
    state.reader("task-counter", () -> counter.healthy(STALE_AFTER));
    this.progress = new ProgressReader(clients, p -> {
      state.trainEpoch(p);
      metrics.results().trainEpoch(p.getExperimentId(), p.getModel(), p.getPattern(), p.getSeed(), p.getEpoch(),
          p.getTrainL1(), p.getValidationL1(), p.getLearningRate());
    });
    this.lag = LagMonitor.start(clients, Worker.GROUP, List.of(Topics.TASKS), metrics.tasks(), Duration.ofSeconds(5));
  }

  /** Binds host:port (0 = any free port) and starts following the plaintext cluster at {@code bootstrap}. */
  public static LiveService start(String bootstrap, String host, int port, Metrics metrics) {
    return start(KafkaClients.of(bootstrap), host, port, metrics);
  }

  /** Binds host:port (0 = any free port) and starts following the cluster {@code clients} reach. */
  public static LiveService start(KafkaClients clients, String host, int port, Metrics metrics) {
    return new LiveService(clients, host, port, metrics);
  }

  /**
   * The aggregator of every experiment that feeds the page and the result meters: it keeps
   * summaries only ({@link Aggregator#summariesOnly}), so a reader running for weeks holds no
   * result. Add any listener of your own, then start it.
   */
  public Aggregator aggregator() {
    return attach(new Aggregator(clients, null).summariesOnly());
  }

  /** Feeds the page and the result meters from {@code aggregator}; call before it starts. */
  public Aggregator attach(Aggregator aggregator) {
    state.reader("aggregator", () -> aggregator.healthy(STALE_AFTER));
    return aggregator.addListener(new ResultMetricsListener(metrics.results()))
        .addListener(new LiveStateListener(state));
  }

  public int port() {
    return http.port();
  }

  public LiveState state() {
    return state;
  }

  @Override
  public void close() {
    lag.close();
    progress.close();
    counter.close();
    http.close();
  }
}
