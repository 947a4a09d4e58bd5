package io.expresso.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.metrics.Metrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The live page's HTTP routes, with state fed by hand (the browser test drives the real system). */
@org.junit.jupiter.api.Timeout(60)
class LiveServerTest {

  static ActorSystem system;
  static ServerBinding binding;
  static Metrics metrics;
  static final LiveState state = new LiveState();
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static String base;

  @BeforeAll
  static void start() throws Exception {
    system = ActorSystem.create("live-server-test");
    metrics = new Metrics();
    binding = LiveServer.start(system, "127.0.0.1", 0, metrics, state).toCompletableFuture().get(30, TimeUnit.SECONDS);
    base = "http://127.0.0.1:" + binding.localAddress().getPort();
  }

  @AfterAll
  static void stop() throws Exception {
    binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    metrics.close();
  }

  static HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void pageAndTheChartLibraryItReferencesAreServedFromTheClasspath() throws Exception {
    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type").orElse("")).startsWith("text/html");
    Matcher src = Pattern.compile("<script src=\"(/webjars/[^\"]+)\"").matcher(page.body());
    assertThat(src.find()).as("page loads Chart.js from a WebJar").isTrue();
    assertThat(page.body()).doesNotContain("cdn");
    HttpResponse<String> chart = get(src.group(1));
    assertThat(chart.statusCode()).isEqualTo(200);
    assertThat(chart.body()).contains("Chart.js");
    assertThat(get("/static/live.js").body()).contains("EventSource('/events')");
    assertThat(get("/static/nope.js").statusCode()).isEqualTo(404);
  }

  @Test
  void metricsAreServedInTheTextFormat() throws Exception {
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type").orElse("")).contains("text/plain").contains("0.0.4");
    assertThat(r.body()).contains("# TYPE jvm_memory_used_bytes gauge");
  }

  @Test
  void stateAndEventsFollowResults() throws Exception {
    state.expect("exp-a", 4);
    state.pair("exp-a", "builtin", "Regular", "1-wl", 0, false, true);
    state.worker("w1", "cpu:0", 0.5, System.currentTimeMillis());
    JsonNode snap = new ObjectMapper().readTree(get("/api/state").body());
    JsonNode exp = snap.path("experiments").get(0);
    assertThat(exp.path("id").asText()).isEqualTo("exp-a");
    assertThat(exp.path("expected").asLong()).isEqualTo(4);
    assertThat(exp.path("configurations").get(0).path("rows").get(0).path("pairs").asLong()).isEqualTo(1);
    assertThat(snap.path("workers").get(0).path("device").asText()).isEqualTo("cpu:0");

    HttpResponse<Stream<String>> sse = http.send(HttpRequest.newBuilder(URI.create(base + "/events")).build(),
        HttpResponse.BodyHandlers.ofLines());
    assertThat(sse.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
    Iterator<String> lines = sse.body().iterator();
    JsonNode first = nextState(lines);
    assertThat(first.path("experiments").get(0).path("results").asLong()).isEqualTo(1);
    state.pair("exp-a", "builtin", "Regular", "3-wl", 0, true, true);
    JsonNode second = nextState(lines);
    assertThat(second.path("version").asLong()).isGreaterThan(first.path("version").asLong());
    assertThat(second.path("experiments").get(0).path("results").asLong()).isEqualTo(2);
    sse.body().close();
  }

  /** The data of the next complete SSE event named "state" (fields end at a blank line). */
  private static JsonNode nextState(Iterator<String> lines) throws Exception {
    String event = null;
    StringBuilder data = new StringBuilder();
    while (lines.hasNext()) {
      String line = lines.next();
      if (line.isEmpty()) {
        if ("state".equals(event) && data.length() > 0) {
          return new ObjectMapper().readTree(data.toString());
        }
        event = null;
        data.setLength(0);
      } else if (line.startsWith("event:")) {
        event = line.substring(6).strip();
      } else if (line.startsWith("data:")) {
        data.append(line.substring(5).strip());
      }
    }
    throw new AssertionError("SSE stream ended");
  }
}
