package io.expresso.deploy;

import io.expresso.runtime.kafka.Topics;
import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.metrics.ExternalTools;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.actors.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/ checked with what the test suite has (no Docker engine, no Kubernetes): YAML parsing and
 * the facts the deployment relies on, promtool on the scrape config, a Kubernetes/KEDA schema check
 * (kubernetes-models under node) and docker-compose's own validation. The compose stack itself runs
 * in deploy/try-compose.sh, which needs a Docker engine (docs/results/deploy-compose.md).
 */
class DeployFilesTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  private static Map<String, Object> services(String file) throws Exception {
    return map(new Yaml().<Map<String, Object>>load(Files.readString(Path.of(file))).get("services"));
  }

  @Test
  void composeRunsKafkaFromTheJarWorkersWatchPrometheusAndGrafana() throws Exception {
    Map<String, Object> services = services("deploy/docker-compose.yml");
    assertThat(services).containsKeys("kafka", "worker", "worker-gpu", "aggregator", "prometheus");
    assertThat(services("deploy/docker-compose.grafana.yml")).containsOnlyKeys("grafana");
    // the broker is Kafka's own main class from the project's jar (no apache/kafka image: 3.9 has no
    // share groups), one KRaft node whose internal topics, share-group state included, fit one node
    Map<String, Object> kafka = map(services.get("kafka"));
    assertThat(list(kafka.get("entrypoint"))).containsExactly("/app/kafka-kraft.sh");
    assertThat(Files.readString(Path.of("deploy/docker-compose.yml"))).doesNotContain("apache/kafka");
    String start = Files.readString(Path.of("deploy/kafka-kraft.sh"));
    assertThat(start).contains("kafka.Kafka \"$config\"", "kafka.tools.StorageTool format", "process.roles=broker,controller",
        "offsets.topic.replication.factor=1", "transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
        "share.coordinator.state.topic.replication.factor=1", "share.coordinator.state.topic.min.isr=1");
    assertThat(Files.readString(Path.of("deploy/Dockerfile.cpu"))).contains("COPY deploy/kafka-kraft.sh /app/kafka-kraft.sh");
    assertThat(map(map(services.get("worker")).get("deploy")).get("replicas")).isEqualTo(2);
    Map<String, Object> gpu = map(services.get("worker-gpu"));
    Map<String, Object> device = map(list(map(map(map(gpu.get("deploy")).get("resources")).get("reservations")).get("devices")).get(0));
    assertThat(device).containsEntry("driver", "nvidia");
    assertThat(list(device.get("capabilities"))).contains("gpu");
    assertThat(map(gpu.get("build")).get("dockerfile")).isEqualTo("deploy/Dockerfile.cuda");
    // every image's base is a build argument (public default; deploy/base-image.sh makes a local one)
    Map<String, String> bases = Map.of("deploy/Dockerfile.cpu", "BASE_IMAGE", "deploy/prometheus/Dockerfile", "BASE_IMAGE",
        "deploy/Dockerfile.cuda", "PYTORCH_IMAGE");
    bases.forEach((file, arg) -> {
      try {
        assertThat(Files.readString(Path.of(file))).as(file).containsPattern("(?m)^ARG " + arg + "=\\S+$")
            .containsPattern("(?m)^FROM \\$\\{" + arg + "}");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    assertThat(Files.readString(Path.of("deploy/Dockerfile.cuda"))).contains("FROM ${BUILD_IMAGE} AS build");
    // every file the compose files mount or build from exists
    for (String file : List.of("deploy/docker-compose.yml", "deploy/docker-compose.grafana.yml")) {
      for (Object s : services(file).values()) {
        Object volumes = map(s).get("volumes");
        if (volumes != null) {
          for (Object v : list(volumes)) {
            String source = v.toString().split(":")[0];
            if (source.startsWith(".")) {
              assertThat(Path.of("deploy").resolve(source).normalize()).as(v.toString()).exists();
            }
          }
        }
        Object build = map(s).get("build");
        if (build != null) {
          Path context = Path.of("deploy").resolve(map(build).get("context").toString()).normalize();
          Object dockerfile = map(build).get("dockerfile");
          assertThat(context.resolve(dockerfile == null ? "Dockerfile" : dockerfile.toString())).as(file).exists();
        }
      }
    }
    String cuda = Files.readString(Path.of("deploy/Dockerfile.cuda"));
    assertThat(cuda).contains("-P cuda").contains("STOPSIGNAL SIGTERM")
        // the JNI is built against the image's own PyTorch by the script a bare host uses; no libtorch download
        .contains("scripts/gpu-setup --cache /opt/djl").contains("ENTRYPOINT [\"/app/scripts/expresso\"]")
        .doesNotContain("PYTORCH_FLAVOR=cu").doesNotContain("Engine.getEngine");
    String version = Files.readString(Path.of("pom.xml")).replaceAll("(?s).*<djl.version>([^<]+)</djl.version>.*", "$1");
    assertThat(cuda).as("the JNI file name the image checks").contains("/" + version + "-libdjl_torch.so");
  }

  @Test
  void composeListensOnLoopbackOnlyAndGrafanaWantsAPassword() throws Exception {
    Map<String, Object> services = new java.util.LinkedHashMap<>(services("deploy/docker-compose.yml"));
    services.putAll(services("deploy/docker-compose.grafana.yml"));
    // the host's network, nothing published: every listener below is on loopback
    services.forEach((name, s) -> {
      assertThat(map(s).get("network_mode")).as(name).isEqualTo("host");
      assertThat(map(s)).as(name).doesNotContainKey("ports");
    });
    assertThat(map(map(services.get("kafka")).get("environment"))).containsEntry("KAFKA_HOST", "127.0.0.1");
    for (String worker : List.of("worker", "worker-gpu")) {
      List<Object> command = list(map(services.get(worker)).get("command"));
      assertThat(option(command, "--metrics-host")).as(worker).isEqualTo("127.0.0.1");
      assertThat(option(command, "--bootstrap")).as(worker).isEqualTo("127.0.0.1:9092");
      assertThat(command).as(worker).contains("--create-topics");
    }
    assertThat(option(list(map(services.get("aggregator")).get("command")), "--host")).isEqualTo("127.0.0.1");
    assertThat(list(map(services.get("prometheus")).get("command"))).contains("--web.listen-address=127.0.0.1:9090");
    Map<String, Object> grafana = map(map(services.get("grafana")).get("environment"));
    assertThat(grafana.get("GF_SERVER_HTTP_ADDR")).isEqualTo("127.0.0.1");
    assertThat(grafana.get("GF_AUTH_ANONYMOUS_ENABLED")).isEqualTo("false");
    assertThat(grafana.get("GF_SECURITY_ADMIN_PASSWORD").toString()).startsWith("${GRAFANA_ADMIN_PASSWORD:?");
    assertThat(Files.readString(Path.of("grafana/provisioning/datasources/prometheus.yml"))).contains("url: http://127.0.0.1:9090");

    // Prometheus scrapes exactly the ports the workers take their /metrics port from, and the live page
    String range = option(list(map(services.get("worker")).get("command")), "--metrics-port");
    assertThat(option(list(map(services.get("worker-gpu")).get("command")), "--metrics-port")).isEqualTo(range);
    int first = Integer.parseInt(range.split("-")[0]);
    int last = Integer.parseInt(range.split("-")[1]);
    List<String> expected = new ArrayList<>();
    for (int port = first; port <= last; port++) {
      expected.add("127.0.0.1:" + port);
    }
    Map<String, List<Object>> targets = new java.util.HashMap<>();
    Map<String, Object> prometheus = new Yaml().load(Files.readString(Path.of("deploy/prometheus/prometheus.yml")));
    for (Object job : list(prometheus.get("scrape_configs"))) {
      List<Object> all = new ArrayList<>();
      for (Object c : list(map(job).get("static_configs"))) {
        all.addAll(list(map(c).get("targets")));
      }
      targets.put(map(job).get("job_name").toString(), all);
    }
    assertThat(targets.get("expresso-workers")).containsExactlyElementsOf(expected);
    assertThat(targets.get("expresso-aggregator")).containsExactly("127.0.0.1:"
        + option(list(map(services.get("aggregator")).get("command")), "--metrics-port"));
    for (String dockerfile : List.of("deploy/Dockerfile.cpu", "deploy/Dockerfile.cuda")) {
      // the images' own default command is for a network of their own (Kubernetes, a bridge)
      assertThat(Files.readString(Path.of(dockerfile))).as(dockerfile).contains("\"--metrics-host\", \"0.0.0.0\"");
    }
  }

  /** The value after {@code name} in a command list. */
  private static String option(List<Object> command, String name) {
    int i = command.indexOf(name);
    assertThat(i).as(name + " in " + command).isNotNegative().isLessThan(command.size() - 1);
    return command.get(i + 1).toString();
  }

  @Test
  void promtoolAcceptsTheScrapeConfig() throws Exception {
    Path promtool = ExternalTools.require("promtool", "prometheus");
    var run = ExternalTools.run(List.of(promtool.toString(), "check", "config", "deploy/prometheus/prometheus.yml"), null, 60);
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("SUCCESS");
  }

  @Test
  void kubernetesManifestsMatchTheRuntime() throws Exception {
    Yaml yaml = new Yaml();
    Map<String, Object> deployment = yaml.load(Files.readString(Path.of("deploy/k8s/worker-deployment.yaml")));
    Map<String, Object> pod = map(map(map(deployment.get("spec")).get("template")).get("spec"));
    assertThat((Integer) pod.get("terminationGracePeriodSeconds")).isGreaterThanOrEqualTo(60);
    Map<String, Object> container = map(list(pod.get("containers")).get(0));
    assertThat(map(map(container.get("resources")).get("limits"))).containsEntry("nvidia.com/gpu", 1);
    assertThat(list(container.get("args"))).contains("worker");
    // one GPU per pod, several evaluations at once on it (docs/gpu.md)
    assertThat(option(list(container.get("args")), "--devices")).isEqualTo("gpu:0x4");
    // the default is loopback; Prometheus and the probes come in through the pod IP
    assertThat(option(list(container.get("args")), "--metrics-host")).isEqualTo("0.0.0.0");

    Map<String, Object> scaled = yaml.load(Files.readString(Path.of("deploy/k8s/keda-scaledobject.yaml")));
    List<String> topics = new ArrayList<>();
    java.util.regex.Pattern backlog = java.util.regex.Pattern.compile(
        "max\\(expresso_consumer_lag_records\\{group=\"([^\"]+)\",topic=\"([^\"]+)\"}\\)");
    for (Object t : list(map(scaled.get("spec")).get("triggers"))) {
      Map<String, Object> meta = map(map(t).get("metadata"));
      assertThat(map(t).get("type")).as("the share group's backlog, from the workers' /metrics").isEqualTo("prometheus");
      java.util.regex.Matcher m = backlog.matcher((String) meta.get("query"));
      assertThat(m.matches()).as("query %s", meta.get("query")).isTrue();
      assertThat(m.group(1)).isEqualTo(Worker.GROUP);
      topics.add(m.group(2));
    }
    assertThat(topics).containsExactly(Topics.TASKS);
    assertThat(map(map(scaled.get("spec")).get("scaleTargetRef")).get("name"))
        .isEqualTo(map(deployment.get("metadata")).get("name"));
  }

  @Test
  void kubernetesManifestsPassTheSchemaCheck() throws Exception {
    Path node = ExternalTools.require("node", "nodejs");
    Path modules = Path.of("src/test/browser/node_modules/kubernetes-models");
    assertThat(modules).as("run: npm ci --prefix src/test/browser").exists();
    List<String> cmd = new ArrayList<>(List.of(node.toString(), "src/test/browser/validate-k8s.mjs"));
    for (String f : List.of("configmap", "worker-deployment", "pdb", "keda-scaledobject")) {
      cmd.add("deploy/k8s/" + f + ".yaml");
    }
    var run = ExternalTools.run(cmd, null, 60);
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("Deployment expresso-worker-gpu valid", "ScaledObject expresso-worker-gpu valid",
        "PodDisruptionBudget expresso-worker-gpu valid");
  }

  @Test
  void dockerComposeValidatesTheFiles() throws Exception {
    Path compose = ExternalTools.require("docker-compose", "docker-compose");
    // the stack itself needs no setting from the environment; Grafana's overlay refuses to start without a password
    var alone = composeConfig(compose, null, "-f", "deploy/docker-compose.yml", "--profile", "gpu");
    assertThat(alone.exitCode()).as(alone.output()).isZero();
    var noPassword = composeConfig(compose, null, "-f", "deploy/docker-compose.yml", "-f", "deploy/docker-compose.grafana.yml");
    assertThat(noPassword.exitCode()).isNotZero();
    assertThat(noPassword.output()).contains("GRAFANA_ADMIN_PASSWORD");
    var all = composeConfig(compose, "validation-only", "-f", "deploy/docker-compose.yml", "-f",
        "deploy/docker-compose.grafana.yml", "--profile", "gpu");
    assertThat(all.exitCode()).as(all.output()).isZero();
  }

  private record Run(int exitCode, String output) {}

  /** {@code docker-compose ARGS config -q} with or without Grafana's password in the environment. */
  private static Run composeConfig(Path compose, String grafanaPassword, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(compose.toString()));
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("config", "-q"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("GRAFANA_ADMIN_PASSWORD");
    if (grafanaPassword != null) {
      pb.environment().put("GRAFANA_ADMIN_PASSWORD", grafanaPassword);
    }
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("docker-compose config finished").isTrue();
    return new Run(p.exitValue(), output);
  }
}
