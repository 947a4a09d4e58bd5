package io.expresso.report;

import io.expresso.proto.v1.DatasetResult;
import io.expresso.stats.MeanStd;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Dataset results as people read them: per model, one row per fold × seed, then mean ± std over
 * them (the benchmarking protocol's summary), and the isomorphic-copy split of the test graphs
 * beside the audit's peering predictor. Classification runs show accuracies, regression runs mean
 * absolute errors beside the error of predicting the training mean.
 */
public final class DatasetTable {

  private DatasetTable() {}

  public static String render(List<DatasetResult> results) {
    Map<String, List<DatasetResult>> byModel = new LinkedHashMap<>();
    for (DatasetResult r : results) {
      byModel.computeIfAbsent(r.getTask().getModel(), k -> new ArrayList<>()).add(r);
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, List<DatasetResult>> e : byModel.entrySet()) {
      List<DatasetResult> rs = new ArrayList<>(e.getValue());
      rs.sort((a, b) -> a.getTask().getFold() != b.getTask().getFold()
          ? Integer.compare(a.getTask().getFold(), b.getTask().getFold()) : Long.compare(a.getTask().getSeed(), b.getTask().getSeed()));
      DatasetResult first = rs.get(0);
      boolean regression = first.getTaskType().equals("regression");
      sb.append(String.format(Locale.ROOT, "%s on %s (%d graphs, %s%s): %s, %d parameters, protocol %s%n",
          e.getKey(), first.getTask().getDataset(), first.getGraphs(),
          regression ? "regression" : first.getClasses() + " classes", nodeLabels(first), first.getModel(),
          first.getParameters(), first.getProtocol().getName()));
      if (regression) {
        regressionRows(sb, rs);
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%4s %5s %8s %8s %7s %6s %18s %8s %8s %8s %8s%n", "fold", "seed",
          "test %", "train %", "epochs", "s", "stop", "copied", "copy %", "clean %", "peer %"));
      for (DatasetResult r : rs) {
        sb.append(String.format(Locale.ROOT, "%4d %5d %8.2f %8.2f %7d %6.0f %18s %8d %8s %8s %8s%n",
            r.getTask().getFold(), r.getTask().getSeed(), 100 * r.getTestAccuracy(), 100 * r.getTrainAccuracy(),
            r.getEpochs(), r.getSeconds(), r.getStop(), r.getCopiedTestGraphs(), pct(r.getCopiedTestAccuracy()),
            pct(r.getCleanTestAccuracy()), pct(r.getPeeringAccuracy())));
      }
      sb.append(String.format(Locale.ROOT, "  test accuracy %s %% (min %.2f, max %.2f) over %d runs; train %s %%;"
              + " epochs %.1f; %.1f s per run, %.0f s in all%n",
          meanStd(rs, DatasetResult::getTestAccuracy), 100 * min(rs), 100 * max(rs), rs.size(),
          meanStd(rs, DatasetResult::getTrainAccuracy), mean(rs, r -> r.getEpochs()), mean(rs, DatasetResult::getSeconds),
          mean(rs, DatasetResult::getSeconds) * rs.size()));
      sb.append(String.format(Locale.ROOT, "  test graphs with an isomorphic copy in training: %s %% of them;"
              + " accuracy on them %s %%, on the others %s %%; peering predictor on them %s %%%n",
          meanStd(rs, r -> r.getTestGraphs() == 0 ? Double.NaN : r.getCopiedTestGraphs() / (double) r.getTestGraphs()),
          meanStd(rs, DatasetResult::getCopiedTestAccuracy), meanStd(rs, DatasetResult::getCleanTestAccuracy),
          meanStd(rs, DatasetResult::getPeeringAccuracy)));
    }
    return sb.toString();
  }

  /** How the runs used node labels: ", N node labels as inputs", ", N node labels not read" or nothing. */
  private static String nodeLabels(DatasetResult r) {
    return r.getNodeLabels() == 0 ? ""
        : ", " + r.getNodeLabels() + " node labels " + (r.getNodeLabelInputs() ? "as inputs" : "not read");
  }

  /** A regression model's rows and summary: mean absolute errors in the target's units. */
  private static void regressionRows(StringBuilder sb, List<DatasetResult> rs) {
    sb.append(String.format(Locale.ROOT, "%4s %5s %9s %9s %9s %7s %6s %18s %8s %9s %9s %9s%n", "fold", "seed",
        "test MAE", "train MAE", "mean MAE", "epochs", "s", "stop", "copied", "copy MAE", "clean MAE", "peer MAE"));
    for (DatasetResult r : rs) {
      sb.append(String.format(Locale.ROOT, "%4d %5d %9.4f %9.4f %9.4f %7d %6.0f %18s %8d %9s %9s %9s%n",
          r.getTask().getFold(), r.getTask().getSeed(), r.getTestMae(), r.getTrainMae(), r.getMeanPredictorTestMae(),
          r.getEpochs(), r.getSeconds(), r.getStop(), r.getCopiedTestGraphs(), num(r.getCopiedTestMae()),
          num(r.getCleanTestMae()), num(r.getPeeringMae())));
    }
    sb.append(String.format(Locale.ROOT, "  test MAE %s (min %.4f, max %.4f) over %d runs; train %s; validation %s;"
            + " predicting the training mean %s; epochs %.1f; %.1f s per run, %.0f s in all%n",
        plain(rs, DatasetResult::getTestMae), rs.stream().mapToDouble(DatasetResult::getTestMae).min().orElse(Double.NaN),
        rs.stream().mapToDouble(DatasetResult::getTestMae).max().orElse(Double.NaN), rs.size(),
        plain(rs, DatasetResult::getTrainMae), plain(rs, DatasetResult::getValidationMae),
        plain(rs, DatasetResult::getMeanPredictorTestMae), mean(rs, r -> r.getEpochs()),
        mean(rs, DatasetResult::getSeconds), mean(rs, DatasetResult::getSeconds) * rs.size()));
    sb.append(String.format(Locale.ROOT, "  test graphs with an isomorphic copy in training: %s %% of them;"
            + " MAE on them %s, on the others %s; peering predictor on them %s%n",
        meanStd(rs, r -> r.getTestGraphs() == 0 ? Double.NaN : r.getCopiedTestGraphs() / (double) r.getTestGraphs()),
        plain(rs, DatasetResult::getCopiedTestMae), plain(rs, DatasetResult::getCleanTestMae),
        plain(rs, DatasetResult::getPeeringMae)));
  }

  /** Mean ± std (4 decimals, no scaling) over the runs where the value was measured ("-" when none). */
  private static String plain(List<DatasetResult> rs, ToDoubleFunction<DatasetResult> f) {
    MeanStd m = MeanStd.ofMeasured(rs.stream().mapToDouble(f).toArray());
    return m.n() == 0 ? "-" : m.format(4);
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.4f", v);
  }

  /** Mean ± std in percent over the runs where the value was measured ("-" when none). */
  private static String meanStd(List<DatasetResult> rs, ToDoubleFunction<DatasetResult> f) {
    MeanStd m = MeanStd.ofMeasured(rs.stream().mapToDouble(r -> 100 * f.applyAsDouble(r)).toArray());
    return m.n() == 0 ? "-" : m.format(2);
  }

  private static double mean(List<DatasetResult> rs, ToDoubleFunction<DatasetResult> f) {
    return rs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  private static double min(List<DatasetResult> rs) {
    return rs.stream().mapToDouble(DatasetResult::getTestAccuracy).min().orElse(Double.NaN);
  }

  private static double max(List<DatasetResult> rs) {
    return rs.stream().mapToDouble(DatasetResult::getTestAccuracy).max().orElse(Double.NaN);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", 100 * v);
  }
}
