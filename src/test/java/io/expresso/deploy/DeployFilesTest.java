package io.expresso.deploy;

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
 * deploy/ checked with what runs here (Docker and Kubernetes do not): YAML parsing and the facts
 * the deployment relies on, promtool on the scrape config, a Kubernetes/KEDA schema check
 * (kubernetes-models under node) and docker-compose's own validation when it is installed.
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

  @Test
  void composeRunsKraftKafkaWorkersPrometheusAndGrafana() throws Exception {
    Map<String, Object> compose = new Yaml().load(Files.readString(Path.of("deploy/docker-compose.yml")));
    Map<String, Object> services = map(compose.get("services"));
    assertThat(services).containsKeys("kafka", "worker", "worker-gpu", "aggregator", "prometheus", "grafana");
    Map<String, Object> kafkaEnv = map(map(services.get("kafka")).get("environment"));
    assertThat(kafkaEnv.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller"); // KRaft, no ZooKeeper
    assertThat(map(map(services.get("worker")).get("deploy")).get("replicas")).isEqualTo(2);
    Map<String, Object> gpu = map(services.get("worker-gpu"));
    Map<String, Object> device = map(list(map(map(map(gpu.get("deploy")).get("resources")).get("reservations")).get("devices")).get(0));
    assertThat(device).containsEntry("driver", "nvidia");
    assertThat(list(device.get("capabilities"))).contains("gpu");
    assertThat(map(gpu.get("build")).get("dockerfile")).isEqualTo("deploy/Dockerfile.cuda");
    // every file the compose file mounts or builds from exists
    for (Object s : services.values()) {
      Object volumes = map(s).get("volumes");
      if (volumes != null) {
        for (Object v : list(volumes)) {
          String source = v.toString().split(":")[0];
          if (source.startsWith(".")) {
            assertThat(Path.of("deploy").resolve(source).normalize()).as(v.toString()).exists();
          }
        }
      }
    }
    assertThat(Path.of("deploy/Dockerfile.cpu")).exists();
    String cuda = Files.readString(Path.of("deploy/Dockerfile.cuda"));
    assertThat(cuda).contains("-P cuda").contains("STOPSIGNAL SIGTERM")
        // the JNI is built against the image's own PyTorch by the script a bare host uses; no libtorch download
        .contains("scripts/gpu-setup --cache /opt/djl").contains("ENTRYPOINT [\"/app/scripts/expresso\"]")
        .doesNotContain("PYTORCH_FLAVOR=cu").doesNotContain("Engine.getEngine");
    String version = Files.readString(Path.of("pom.xml")).replaceAll("(?s).*<djl.version>([^<]+)</djl.version>.*", "$1");
    assertThat(cuda).as("the JNI file name the image checks").contains("/" + version + "-libdjl_torch.so");
  }

  @Test
  void composePublishesOnLoopbackOnlyAndGrafanaWantsAPassword() throws Exception {
    Map<String, Object> services = map(new Yaml().<Map<String, Object>>load(
        Files.readString(Path.of("deploy/docker-compose.yml"))).get("services"));
    List<String> published = new ArrayList<>();
    services.forEach((name, s) -> {
      Object ports = map(s).get("ports");
      if (ports != null) {
        for (Object port : list(ports)) {
          assertThat(port.toString()).as(name + " publishes " + port).startsWith("127.0.0.1:");
          published.add(name);
        }
      }
    });
    assertThat(published).contains("kafka", "aggregator", "prometheus", "grafana");

    Map<String, Object> grafana = map(map(services.get("grafana")).get("environment"));
    assertThat(grafana.get("GF_AUTH_ANONYMOUS_ENABLED")).isEqualTo("false");
    assertThat(grafana.get("GF_SECURITY_ADMIN_PASSWORD").toString()).startsWith("${GRAFANA_ADMIN_PASSWORD:?");

    // containers that must be scraped or reached say so; the compose broker is theirs to set up
    for (String worker : List.of("worker", "worker-gpu")) {
      List<Object> command = list(map(services.get(worker)).get("command"));
      assertThat(option(command, "--metrics-host")).as(worker).isEqualTo("0.0.0.0");
      assertThat(command).as(worker).contains("--create-topics");
    }
    assertThat(option(list(map(services.get("aggregator")).get("command")), "--host")).isEqualTo("0.0.0.0");
    for (String dockerfile : List.of("deploy/Dockerfile.cpu", "deploy/Dockerfile.cuda")) {
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
    assertThat(TaskKind.topics()).containsAll(topics);
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
  void dockerComposeValidatesTheFile() throws Exception {
    Path compose = ExternalTools.require("docker-compose", "docker-compose");
    ProcessBuilder pb = new ProcessBuilder(compose.toString(), "-f", "deploy/docker-compose.yml", "--profile", "gpu",
        "config", "-q").redirectErrorStream(true);
    pb.environment().put("GRAFANA_ADMIN_PASSWORD", "validation-only"); // the file refuses to start without one
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("docker-compose config finished").isTrue();
    assertThat(p.exitValue()).as(output).isZero();
  }
}
