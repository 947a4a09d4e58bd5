package io.expresso.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The Grafana dashboards and provisioning parse, and query only meters the code exposes. */
class DashboardsTest {

  @Test
  void everyDashboardMetricIsExposedByTheCode() throws Exception {
    List<DashboardQueries.Query> queries = DashboardQueries.all();
    assertThat(queries).hasSizeGreaterThan(20);
    Set<String> exposed;
    try (Metrics m = new Metrics()) {
      MetricsTest.feedAll(m);
      exposed = DashboardQueries.exposedNames(m.scrape());
    }
    Set<String> missing = new TreeSet<>();
    Set<String> used = new TreeSet<>();
    for (DashboardQueries.Query q : queries) {
      Set<String> names = DashboardQueries.metricNames(q.expr());
      assertThat(names).as("%s / %s uses no metric: %s", q.dashboard(), q.panel(), q.expr()).isNotEmpty();
      used.addAll(names);
      names.stream().filter(n -> !exposed.contains(n)).forEach(n -> missing.add(n + " (" + q.dashboard() + " / " + q.panel() + ")"));
    }
    assertThat(missing).as("dashboard metrics not exposed").isEmpty();
    // the dashboards cover the whole contract (a histogram through its _bucket series)
    for (String name : MeterNames.PROMETHEUS_NAMES) {
      assertThat(used.stream().anyMatch(u -> u.equals(name) || u.startsWith(name + "_")))
          .as("no dashboard shows " + name).isTrue();
    }
  }

  @Test
  void dashboardsAreWellFormedAndUseTheProvisionedDatasource() throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> ds = new Yaml().load(Files.readString(Path.of("grafana/provisioning/datasources/prometheus.yml")));
    @SuppressWarnings("unchecked")
    String uid = (String) ((List<Map<String, Object>>) ds.get("datasources")).get(0).get("uid");
    Set<String> uids = new HashSet<>();
    Set<String> titles = new TreeSet<>();
    for (String name : List.of("overview", "expressiveness", "robustness")) {
      JsonNode d = json.readTree(Path.of("grafana/dashboards", name + ".json").toFile());
      assertThat(uids.add(d.path("uid").asText())).as("unique uid " + name).isTrue();
      titles.add(d.path("title").asText());
      Set<Integer> ids = new HashSet<>();
      for (JsonNode p : d.path("panels")) {
        assertThat(ids.add(p.path("id").asInt())).as(name + " panel ids unique").isTrue();
        assertThat(p.path("datasource").path("uid").asText()).isEqualTo(uid);
        assertThat(p.path("targets").size()).as(name + " / " + p.path("title")).isPositive();
        for (JsonNode t : p.path("targets")) {
          assertThat(t.path("datasource").path("uid").asText()).isEqualTo(uid);
        }
      }
      for (JsonNode v : d.path("templating").path("list")) {
        assertThat(v.path("datasource").path("uid").asText()).isEqualTo(uid);
      }
    }
    assertThat(titles).containsExactly("Expresso / Expressiveness", "Expresso / Overview", "Expresso / Robustness");
    Map<String, Object> provider = new Yaml().load(Files.readString(Path.of("grafana/provisioning/dashboards/expresso.yml")));
    assertThat(provider.toString()).contains("path=/var/lib/grafana/dashboards");
  }

  @Test
  void promtoolParsesEveryDashboardQuery() throws Exception {
    // promtool has no "check query"; "promtool check rules" parses each expression of a rule file.
    Path promtool = ExternalTools.require("promtool", "prometheus");
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboards\n    rules:\n");
    int i = 0;
    for (DashboardQueries.Query q : DashboardQueries.all()) {
      rules.append("      - record: dashboard:query").append(i++).append('\n')
          .append("        expr: '").append(q.forPrometheus().replace("'", "''")).append("'\n");
    }
    Path file = Files.createTempFile("dashboard-queries", ".yml");
    try {
      Files.writeString(file, rules);
      var run = ExternalTools.run(List.of(promtool.toString(), "check", "rules", file.toString()), null, 60);
      assertThat(run.exitCode()).as(run.output()).isZero();
      assertThat(run.output()).contains("SUCCESS: " + i + " rules found");
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
