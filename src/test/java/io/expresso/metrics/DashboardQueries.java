package io.expresso.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The PromQL queries of grafana/dashboards/*.json, and the metric names they use. */
public final class DashboardQueries {

  /** One panel target. */
  public record Query(String dashboard, String panel, String expr) {
    /** The query as Prometheus evaluates it: Grafana's variables replaced by match-all values. */
    public String forPrometheus() {
      return expr.replace("$__rate_interval", "1m").replaceAll("\\$[a-z_]+", ".*");
    }
  }

  private static final Pattern METRIC =
      Pattern.compile("\\b((?:expresso|jvm|process|system)_[a-z0-9_]+)\\b");

  private DashboardQueries() {}

  public static Path dashboardsDir() {
    return Path.of("grafana", "dashboards");
  }

  public static List<Query> all() throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Query> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dashboardsDir())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        JsonNode d = json.readTree(f.toFile());
        for (JsonNode panel : d.path("panels")) {
          for (JsonNode t : panel.path("targets")) {
            out.add(new Query(f.getFileName().toString(), panel.path("title").asText(), t.path("expr").asText()));
          }
        }
      }
    }
    return out;
  }

  /** Metric names in one query (a histogram's _bucket/_sum/_count series count as themselves). */
  public static Set<String> metricNames(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(expr);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** Series names present in a Prometheus text exposition. */
  public static Set<String> exposedNames(String scrape) {
    Set<String> names = new TreeSet<>();
    for (String line : scrape.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int end = 0;
      while (end < line.length() && (Character.isLetterOrDigit(line.charAt(end)) || line.charAt(end) == '_' || line.charAt(end) == ':')) {
        end++;
      }
      names.add(line.substring(0, end));
    }
    return names;
  }
}
