# Generates grafana/dashboards/*.json (run from grafana/: python3 generate_dashboards.py).
# The queries name only meters from io.expresso.metrics.MeterNames and JVM/process meters;
# DashboardQueriesTest checks that against a live scrape.
import json
DS = {"type": "prometheus", "uid": "expresso-prometheus"}
def panel(pid, title, kind, exprs, x, y, w=12, h=8, unit=None, legend=None, extra=None, instant=False):
    targets = []
    for i, e in enumerate(exprs):
        expr, leg = e if isinstance(e, tuple) else (e, None)
        t = {"datasource": DS, "refId": chr(65 + i), "expr": expr}
        if leg: t["legendFormat"] = leg
        if instant: t["instant"] = True; t["range"] = False; t["format"] = "table"
        targets.append(t)
    p = {"id": pid, "title": title, "type": kind, "datasource": DS,
         "gridPos": {"x": x, "y": y, "w": w, "h": h}, "targets": targets,
         "fieldConfig": {"defaults": {}, "overrides": []}, "options": {}}
    if unit: p["fieldConfig"]["defaults"]["unit"] = unit
    if extra: p.update(extra)
    return p
def var(name, metric, label):
    return {"name": name, "label": label, "type": "query", "datasource": DS,
            "query": {"query": f"label_values({metric}, {label})", "refId": name},
            "definition": f"label_values({metric}, {label})",
            "includeAll": True, "multi": True, "allValue": ".*",
            "current": {"text": "All", "value": "$__all"}, "refresh": 2}
def dash(uid, title, panels, desc, variables=()):
    return {"uid": uid, "title": title, "description": desc, "tags": ["expresso"],
            "schemaVersion": 39, "version": 1, "editable": True, "refresh": "5s",
            "time": {"from": "now-30m", "to": "now"}, "timezone": "utc",
            "templating": {"list": list(variables)}, "panels": panels, "annotations": {"list": []}}
RI = "$__rate_interval"
overview = dash("expresso-overview", "Expresso / Overview", [
    panel(1, "Tasks completed per second", "timeseries",
          [(f"sum by (kind) (rate(expresso_tasks_completed_total[{RI}]))", "{{kind}}")], 0, 0, unit="ops"),
    panel(2, "Tasks failed per second", "timeseries",
          [(f"sum by (kind, reason) (rate(expresso_tasks_failed_total[{RI}]))", "{{kind}} {{reason}}")], 12, 0, unit="ops"),
    panel(3, "Task duration p50 / p99", "timeseries",
          [(f"histogram_quantile(0.5, sum by (le, kind) (rate(expresso_task_duration_seconds_bucket[{RI}])))", "p50 {{kind}}"),
           (f"histogram_quantile(0.99, sum by (le, kind) (rate(expresso_task_duration_seconds_bucket[{RI}])))", "p99 {{kind}}")], 0, 8, unit="s"),
    panel(4, "Consumer lag (records)", "timeseries",
          [("max by (group, topic) (expresso_consumer_lag_records)", "{{topic}}")], 12, 8, unit="short"),
    panel(5, "Tasks in flight per device", "timeseries",
          [("sum by (instance, device) (expresso_tasks_in_flight)", "{{instance}} {{device}}")], 0, 16, unit="short"),
    panel(6, "Device utilisation (busy share)", "timeseries",
          [(f"rate(expresso_device_busy_seconds_total[{RI}])", "{{instance}} {{device}}")], 12, 16, unit="percentunit"),
    panel(7, "Tasks received per second", "timeseries",
          [(f"sum by (kind) (rate(expresso_tasks_received_total[{RI}]))", "{{kind}}")], 0, 24, unit="ops"),
    panel(8, "Tasks by current outcome (a retry's success replaces its error)", "stat",
          [("sum by (kind, outcome) (expresso_experiment_tasks)", "{{kind}} {{outcome}}")], 12, 24),
    panel(9, "JVM heap used", "timeseries",
          [('sum by (instance) (jvm_memory_used_bytes{area="heap"})', "{{instance}}")], 0, 32, unit="bytes"),
    panel(10, "Process CPU (cores)", "timeseries",
          [(f"rate(process_cpu_seconds_total[{RI}])", "{{instance}}")], 12, 32, unit="short"),
    panel(11, "Fleet: cancellations, hand-overs, restarts (per minute)", "timeseries",
          [(f"sum by (reason) (increase(expresso_tasks_cancelled_total[1m]))", "running tasks cancelled ({{reason}})"),
           ("sum(increase(expresso_tasks_handed_back_total[1m]))", "queued tasks handed back"),
           ("sum(increase(expresso_task_loop_restarts_total[1m]))", "task loop restarts")], 0, 40, unit="short"),
    panel(12, "Fleet: attempts and poison tasks (per minute)", "timeseries",
          [(f"sum by (kind) (increase(expresso_task_attempts_total[1m]))", "attempts {{kind}}"),
           (f"sum by (kind) (increase(expresso_tasks_poison_total[1m]))", "poison {{kind}}")], 12, 40, unit="short"),
    panel(13, "Age of the running task per device", "timeseries",
          [("max by (instance, device) (expresso_device_task_age_seconds)", "{{instance}} {{device}}")], 0, 48, w=24, unit="s"),
    panel(14, "Duplicate result records per minute (a task run twice; each task still counts once)", "timeseries",
          [(f"sum by (kind) (increase(expresso_result_duplicates_total[1m]))", "{{kind}}")], 0, 56, w=24, unit="short"),
], "Throughput, latency, failures, consumer lag, devices and fleet membership of every Expresso worker.")
sel = 'experiment=~"$experiment", model=~"$model"'
expressiveness = dash("expresso-expressiveness", "Expresso / Expressiveness", [
    panel(1, "Accuracy by category and model (distinguished / evaluated)", "table",
          [(f"sum by (suite, category, model) (expresso_pairs_distinguished_total{{{sel}}}) / sum by (suite, category, model) (expresso_pairs_evaluated_total{{{sel}}})", None)],
          0, 0, w=24, h=10, unit="percentunit", instant=True,
          extra={"transformations": [{"id": "organize", "options": {"excludeByName": {"Time": True}}}]}),
    panel(2, "Pairs evaluated by model", "bargauge",
          [(f"sum by (model) (expresso_pairs_evaluated_total{{{sel}}})", "{{model}}")], 0, 10, w=8),
    panel(3, "Pairs distinguished by model", "bargauge",
          [(f"sum by (model) (expresso_pairs_distinguished_total{{{sel}}})", "{{model}}")], 8, 10, w=8),
    panel(4, "Reliability failures by category and model", "bargauge",
          [(f"sum by (category, model) (expresso_pairs_reliability_failures_total{{{sel}}})", "{{category}} {{model}}")], 16, 10, w=8),
    panel(5, "T² distribution of pair tests (threshold 72.34 at q=32, d=16, α=0.05)", "bargauge",
          [('sum by (le) (expresso_pair_t2_bucket{statistic="test", model=~"$model"})', "≤ {{le}}")], 0, 18,
          extra={"options": {"displayMode": "gradient", "orientation": "vertical"}}),
    panel(6, "Median T² by model and statistic", "timeseries",
          [('histogram_quantile(0.5, sum by (le, model, statistic) (expresso_pair_t2_bucket{model=~"$model"}))', "{{model}} {{statistic}}")], 12, 18),
    panel(7, "Pairs judged per second", "timeseries",
          [(f"sum by (model) (rate(expresso_pairs_evaluated_total{{{sel}}}[{RI}]))", "{{model}}")], 0, 26, unit="ops"),
    panel(8, "Training: epochs and mean final loss", "timeseries",
          [('sum by (model) (expresso_training_epochs_total{kind="pair", model=~"$model"})', "epochs {{model}}"),
           ('sum by (model) (expresso_training_final_loss_sum{kind="pair", model=~"$model"}) / sum by (model) (expresso_training_final_loss_count{kind="pair", model=~"$model"})', "loss {{model}}")], 12, 26),
    panel(9, "Worker peak resident memory per trained pair (largest, mean)", "timeseries",
          [('max by (model) (expresso_pair_peak_memory_bytes_max{model=~"$model"})', "largest {{model}}"),
           ('sum by (model) (expresso_pair_peak_memory_bytes_sum{model=~"$model"}) / sum by (model) (expresso_pair_peak_memory_bytes_count{model=~"$model"})', "mean {{model}}")],
          0, 34, w=24, unit="bytes"),
], "Pair-suite accuracy by category and model, reliability failures and the T² distribution.",
   [var("experiment", "expresso_pairs_evaluated_total", "experiment"), var("model", "expresso_pairs_evaluated_total", "model")])
asel = 'model=~"$model", pattern=~"$pattern", space=~"$space"'
robustness = dash("expresso-robustness", "Expresso / Robustness", [
    panel(1, "Attack success rate versus budget", "barchart",
          [(f"sum by (model, pattern, space, budget) (expresso_attack_successes_total{{{asel}}}) / sum by (model, pattern, space, budget) (expresso_attack_targets_total{{{asel}}})", None)],
          0, 0, w=24, h=10, unit="percentunit", instant=True,
          extra={"options": {"xField": "budget"}}),
    panel(2, "AUC of success rate versus budget", "table",
          [(f"max by (model, pattern, space) (expresso_attack_auc{{{asel}}})", None)], 0, 10, instant=True),
    panel(3, "Graphs attacked", "bargauge",
          [(f"max by (model, pattern, space) (expresso_attack_targets_total{{{asel}}})", "{{model}} {{pattern}} {{space}}")], 12, 10),
    panel(4, "Count models: mean final training loss", "timeseries",
          [('sum by (model) (expresso_training_final_loss_sum{kind="train", model=~"$model"}) / sum by (model) (expresso_training_final_loss_count{kind="train", model=~"$model"})', "{{model}}")], 0, 18),
    panel(6, "Running training: train and validation l1 of the latest epoch", "timeseries",
          [('max by (experiment, model, pattern, seed, split) (expresso_train_l1{model=~"$model", pattern=~"$pattern"})', "{{model}} {{pattern}} s{{seed}} {{split}}")], 0, 26),
    panel(7, "Running training: epoch and learning rate", "timeseries",
          [('max by (experiment, model, pattern, seed) (expresso_train_epoch{model=~"$model", pattern=~"$pattern"})', "epoch {{model}} {{pattern}} s{{seed}}"),
           ('max by (experiment, model, pattern, seed) (expresso_train_learning_rate{model=~"$model", pattern=~"$pattern"})', "lr {{model}} {{pattern}} s{{seed}}")], 12, 26),
    panel(5, "Train and attack results per second", "timeseries",
          [(f'sum by (kind, outcome) (rate(expresso_results_total{{kind=~"train|attack"}}[{RI}]))', "{{kind}} {{outcome}}")], 12, 18, unit="ops"),
], "Adversarial robustness of subgraph counting: success rate versus budget and its AUC by model, pattern and perturbation space.",
   [var("model", "expresso_attack_targets_total", "model"), var("pattern", "expresso_attack_targets_total", "pattern"), var("space", "expresso_attack_targets_total", "space")])
for name, d in [("overview", overview), ("expressiveness", expressiveness), ("robustness", robustness)]:
    with open(f"dashboards/{name}.json", "w") as f:
        json.dump(d, f, indent=2, ensure_ascii=False); f.write("\n")
