package io.expresso.bench;

import io.expresso.runtime.TaskMessages;
import io.expresso.bench.FleetSchedule.Window;
import io.expresso.bench.FleetWorker.Scrape;
import io.expresso.proto.v1.Result;
import io.expresso.report.Table;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskTimeouts;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ResultListener;
import io.expresso.runtime.kafka.Topics;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import java.util.stream.Collectors;

/**
 * The harness of {@code expresso bench fleet}: long tasks on an elastic fleet. Starts an embedded
 * broker, two workers as child JVMs ({@code expresso worker --devices cpu:1}), publishes long
 * synthetic tasks, starts a third worker at the join time and stops the first with SIGTERM at the
 * leave time, and measures the wall time from the publish to the last result against the ideal
 * (the work divided by the devices available over time), the hand-overs, and the device time
 * spent on work that left no committed result (from each worker's /metrics and the results'
 * provenance). A benchmark, not a test: it measures and reports, whatever it finds.
 */
public final class FleetBench {

  /**
   * The scenario: {@code tasks} synthetic tasks of {@code workMs} ms; the third worker joins
   * {@code joinAt} after the publish and the first gets SIGTERM {@code leaveAt} after it; a run
   * gives up {@code timeout} after the publish. Durations as the worker's flags read them ({@code
   * 20s}, {@code 10m}); the worker flags (null: the worker's own default) go to every worker as given.
   */
  public record Settings(int tasks, int workMs, String joinAt, String leaveAt, String timeout, int partitions,
      String stopGrace, String bootstrap) {}

  private static final String BUSY = "expresso_device_busy_seconds_total";
  private static final String AGE = "expresso_device_task_age_seconds";
  private static final String IN_FLIGHT = "expresso_tasks_in_flight";
  private static final String RECEIVED = "expresso_tasks_received_total";
  private static final String COMPLETED = "expresso_tasks_completed_total";
  private static final String FAILED = "expresso_tasks_failed_total";
  private static final String CANCELLED = "expresso_tasks_cancelled_total";
  private static final String HANDED_BACK = "expresso_tasks_handed_back_total";
  private static final String ATTEMPTS = "expresso_task_attempts_total";

  private final int tasks;
  private final int workMs;
  private final String joinAt;
  private final String leaveAt;
  private final Duration join;
  private final Duration leave;
  private final Duration deadline;
  private final int partitions;
  private final String stopGrace;
  /** An existing cluster to run on, or null for an embedded broker per run. */
  private final String bootstrap;

  /** @throws IllegalArgumentException if a duration does not parse */
  public FleetBench(Settings s) {
    this.tasks = s.tasks();
    this.workMs = s.workMs();
    this.joinAt = s.joinAt();
    this.leaveAt = s.leaveAt();
    this.join = TaskTimeouts.duration(s.joinAt());
    this.leave = TaskTimeouts.duration(s.leaveAt());
    this.deadline = TaskTimeouts.duration(s.timeout());
    if (s.stopGrace() != null) {
      TaskTimeouts.duration(s.stopGrace());
    }
    this.partitions = s.partitions();
    this.stopGrace = s.stopGrace();
    this.bootstrap = s.bootstrap();
  }

  /** Everything one run measured. */
  public record RunReport(int run, boolean complete, int unique, int duplicatesCommitted, double wall, double lastFinished,
      double fluidIdeal, double discreteIdeal, double join, double leaveSigterm, double leaveExit, double suppliedToWall,
      double deviceSeconds, double committedCompute, double wasted, String wasteCaveat, double executions,
      double completed, double failed, double cancelled, double handedBack, double attempts,
      double joinFirstStart, double leaverLastFinish, double idleWhileWaiting, String loadBefore, String loadAfter, List<String[]> events, List<String[]> perWorker,
      List<String[]> perTask, List<String> chart, Path logDir) {

    /** Wall time over the ideal. */
    public double ofIdeal() {
      return wall / fluidIdeal;
    }
  }

  private List<String> workerFlags() {
    List<String> f = new ArrayList<>(List.of("--partitions", String.valueOf(partitions)));
    if (stopGrace != null) {
      f.addAll(List.of("--stop-grace", stopGrace));
    }
    return f;
  }

  /** One run of the scenario on a fresh broker and fresh workers, their logs in {@code dir}. */
  public RunReport runOnce(int run, Path dir) throws Exception {
    Duration joinAfter = join;
    Duration leaveAfter = leave;
    String loadBefore = load();
    long base = System.nanoTime();
    // on a cluster that outlives the runs, each run's experiment is new
    String experiment = bootstrap == null ? "fleet" + run : "fleet-" + System.currentTimeMillis() + "-" + run;
    List<FleetWorker> workers = new java.util.concurrent.CopyOnWriteArrayList<>(); // the scraper reads it
    try (EmbeddedBroker broker = bootstrap == null ? EmbeddedBroker.start(0, null) : null) {
      String b = broker != null ? broker.bootstrap() : bootstrap;
      if (broker != null) {
        Topics.create(broker.clients(), Topics.Creation.singleNode(Topics.DEFAULT_PARTITIONS, partitions));
      } else {
        Topics.create(KafkaClients.of(b), new Topics.Creation(Topics.DEFAULT_PARTITIONS, partitions,
            Topics.CLUSTER_DEFAULT_REPLICATION, Topics.KEEP_FOREVER)); // what exists is left as it is
      }
      FleetWorker w1 = FleetWorker.start("w1", b, workerFlags(), base, dir);
      workers.add(w1);
      FleetWorker w2 = FleetWorker.start("w2", b, workerFlags(), base, dir);
      workers.add(w2);
      for (FleetWorker w : workers) {
        if (!w.awaitReady(Duration.ofMinutes(3))) {
          throw new IllegalStateException("worker " + w.id + " did not start; its log: " + dir.resolve(w.id + ".log"));
        }
      }
      awaitJoined(b, 2, Duration.ofMinutes(2), dir);
      AtomicLong lastResult = new AtomicLong();
      AtomicInteger duplicates = new AtomicInteger();
      try (Aggregator a = new Aggregator(b, experiment).addListener(new ResultListener() {
        @Override
        public void onResult(Result result) {
          lastResult.set(System.nanoTime());
        }

        @Override
        public void onDuplicate(Result result) {
          duplicates.incrementAndGet();
        }
      }).start()) {
        a.awaitCaughtUp(Duration.ofSeconds(30));
        Thread scraper = new Thread(() -> {
          while (!Thread.currentThread().isInterrupted()) {
            for (FleetWorker w : List.copyOf(workers)) {
              if (w.alive()) {
                w.scrape();
              }
            }
            // a stopping worker is scraped every 25 ms, so its last scrape follows its last task closely
            boolean draining = List.copyOf(workers).stream().anyMatch(w -> w.alive() && !Double.isNaN(w.sigterm()));
            try {
              Thread.sleep(draining ? 25 : 200);
            } catch (InterruptedException e) {
              return;
            }
          }
        }, "bench-fleet-scraper");
        scraper.setDaemon(true);
        long publishNanos;
        long publishEpochMs;
        FleetWorker w3 = null;
        try {
          System.err.println("bench fleet: publishing " + tasks + " tasks of " + workMs + " ms");
          publishNanos = System.nanoTime();
          publishEpochMs = System.currentTimeMillis();
          try (Publisher p = new Publisher(b)) {
            for (int i = 0; i < tasks; i++) {
              p.send(experiment + "/synthetic/" + i, TaskMessages.syntheticTask(experiment, i, workMs));
            }
            p.flush();
          }
          scraper.start();
          long end = publishNanos + deadline.toNanos();
          boolean left = false;
          while (a.uniqueCount() < tasks && System.nanoTime() < end) {
            long since = System.nanoTime() - publishNanos;
            if (w3 == null && since >= joinAfter.toNanos()) {
              System.err.println("bench fleet: starting w3");
              w3 = FleetWorker.start("w3", b, workerFlags(), base, dir);
              workers.add(w3);
            }
            if (!left && since >= leaveAfter.toNanos()) {
              System.err.println("bench fleet: SIGTERM to w1");
              w1.scrape();
              w1.terminate();
              left = true;
            }
            Thread.sleep(20);
          }
          Thread.sleep(2000); // a late duplicate would show by now
          if (!left) {
            System.err.println("bench fleet: every result arrived before --leave-at; w1 never left");
          }
          // the leaver first (it drains on its own), then the rest, each scraped just before its SIGTERM
          w1.awaitExit(Duration.ofMinutes(2));
          for (FleetWorker w : workers) {
            if (w.alive()) {
              w.scrape();
              w.terminate();
            }
          }
          for (FleetWorker w : workers) {
            if (!w.awaitExit(Duration.ofMinutes(2))) {
              System.err.println("bench fleet: " + w.id + " did not stop within 2 min of SIGTERM; killing it");
            }
          }
        } finally {
          scraper.interrupt();
          scraper.join(5000);
          workers.forEach(FleetWorker::close);
        }
        double zero = (publishNanos - base) / 1e9;
        double wall = lastResult.get() == 0 ? Double.NaN : (lastResult.get() - publishNanos) / 1e9;
        return analyse(run, a.results(), duplicates.get(), a.uniqueCount() >= tasks, wall, zero, publishEpochMs,
            workers, loadBefore, load(), dir);
      }
    } finally {
      workers.forEach(FleetWorker::close);
    }
  }

  /**
   * Waits until {@code members} share consumers hold every synthetic partition and the group has
   * started on each (the broker sets up a share partition at its first fetch): what the old
   * benchmark's wait for the partition split was, so the publish does not pay the group's set-up.
   */
  private void awaitJoined(String bootstrap, int members, Duration timeout, Path dir) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      while (System.nanoTime() < end) {
        try {
          ShareGroupDescription g = admin.describeShareGroups(List.of(Worker.GROUP)).all().get(10, TimeUnit.SECONDS)
              .get(Worker.GROUP);
          int taskPartitions = admin.describeTopics(List.of(Topics.TASKS)).allTopicNames().get(10, TimeUnit.SECONDS)
              .get(Topics.TASKS).partitions().size();
          long holding = g.members().stream().filter(m -> m.assignment().topicPartitions().stream()
              .anyMatch(tp -> tp.topic().equals(Topics.TASKS))).count();
          long started = admin.listShareGroupOffsets(Map.of(Worker.GROUP, new ListShareGroupOffsetsSpec()))
              .partitionsToOffsetInfo(Worker.GROUP).get(10, TimeUnit.SECONDS).keySet().stream()
              .filter(tp -> tp.topic().equals(Topics.TASKS)).count();
          if (holding >= members && started == taskPartitions) {
            return;
          }
        } catch (java.util.concurrent.ExecutionException e) {
          // the group does not exist yet
        }
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("w1 and w2 did not join the share group within " + timeout.toSeconds()
        + " s; their logs are in " + dir);
  }

  /** One committed result, times in seconds from the publish. */
  record Done(String task, String worker, int partition, double started, double finished, double compute) {}

  private RunReport analyse(int run, List<Result> results, int duplicates, boolean complete, double wall, double zero,
      long publishEpochMs, List<FleetWorker> workers, String loadBefore, String loadAfter, Path dir) {
    List<Done> done = results.stream().map(r -> new Done(r.getTaskId(), r.getProvenance().getWorkerId(),
        r.getProvenance().getPartition(), (r.getProvenance().getStartedAtMs() - publishEpochMs) / 1e3,
        (r.getProvenance().getFinishedAtMs() - publishEpochMs) / 1e3, r.getProvenance().getComputeSeconds()))
        .sorted(Comparator.comparingDouble(Done::started)).toList();
    FleetWorker leaver = workers.get(0);
    FleetWorker joiner = workers.size() > 2 ? workers.get(2) : null;
    double join = joiner == null ? Double.NaN : joiner.ready() - zero;
    double sigterm = leaver.sigterm() - zero;
    double exit = Double.isNaN(leaver.sigterm()) ? Double.NaN : leaver.exited() - zero;

    // device windows: w1 and w2 serve from the publish (they joined before it), w3 from when it says it serves
    List<Window> windows = new ArrayList<>();
    windows.add(Double.isNaN(sigterm) ? Window.always("w1")
        : new Window("w1", 0, Double.isNaN(exit) ? Double.POSITIVE_INFINITY : exit, sigterm));
    windows.add(Window.always("w2"));
    if (joiner != null && !Double.isNaN(join)) {
      windows.add(new Window("w3", join, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
    }
    double work = tasks * workMs / 1e3;
    double fluid = FleetSchedule.fluidIdeal(work, windows);
    double discrete = FleetSchedule.discreteIdeal(tasks, workMs / 1e3, windows);
    double lastFinished = done.stream().mapToDouble(Done::finished).max().orElse(Double.NaN);

    // device time: each worker's busy counter and running task's age at its last scrape, plus
    // what committed results show it worked after that scrape
    double deviceSeconds = 0;
    double executions = 0;
    double completed = 0;
    double failed = 0;
    double cancelled = 0;
    double handedBack = 0;
    double attempts = 0;
    List<String> caveats = new ArrayList<>();
    List<String[]> perWorker = new ArrayList<>();
    for (FleetWorker w : workers) {
      Scrape s = w.lastScrape();
      List<Done> mine = done.stream().filter(d -> d.worker().equals(w.id)).toList();
      double committed = mine.stream().mapToDouble(Done::compute).sum();
      if (s == null) {
        caveats.add(w.id + " was never scraped");
        perWorker.add(new String[] {w.id, "-", "-", String.valueOf(mine.size()), f(committed, 1), "-", "-", "-", "-",
            "-"});
        continue;
      }
      double ts = s.t() - zero;
      double post = 0;
      int straddling = 0;
      for (Done d : mine) {
        if (d.finished() > ts) {
          post += d.finished() - Math.max(d.started(), ts);
          straddling += d.started() <= ts ? 1 : 0;
        }
      }
      double running = s.get(IN_FLIGHT);
      if (running > straddling) {
        caveats.add(String.format(Locale.ROOT, "%s had %.0f task(s) running at its last scrape (t=%.1f s) that left no"
            + " committed result: their device time after that scrape (at most %.1f s each, until its exit) is not counted",
            w.id, running - straddling, ts, w.exited() - zero - ts));
      }
      double device = s.get(BUSY) + s.get(AGE) + post;
      deviceSeconds += device;
      executions += s.get(RECEIVED);
      completed += s.get(COMPLETED);
      failed += s.get(FAILED);
      cancelled += s.get(CANCELLED);
      handedBack += s.get(HANDED_BACK);
      attempts += s.get(ATTEMPTS);
      perWorker.add(new String[] {w.id, f(ts, 1), f(device, 1), String.valueOf(mine.size()), f(committed, 1),
          f(device - committed, 1), f(s.get(RECEIVED), 0), f(s.get(CANCELLED), 0), f(s.get(HANDED_BACK), 0),
          f(s.get(ATTEMPTS), 0)});
    }
    double committedCompute = done.stream().mapToDouble(Done::compute).sum();

    // hand-overs: the joiner's first task; the leaver's last
    double joinFirstStart = Double.NaN;
    if (joiner != null) {
      joinFirstStart = done.stream().filter(d -> d.worker().equals(joiner.id)).mapToDouble(Done::started).min()
          .orElse(Double.NaN);
    }
    double leaverLast = done.stream().filter(d -> d.worker().equals(leaver.id)).mapToDouble(Done::finished).max()
        .orElse(Double.NaN);
    List<String[]> perTask = done.stream().map(d -> new String[] {d.task(), String.valueOf(d.partition()), d.worker(),
        f(d.started(), 2), f(d.finished(), 2), f(d.compute(), 3)}).toList();
    double supplied = FleetSchedule.supplied(windows, wall);
    List<List<double[]>> busyByDevice = new ArrayList<>();
    for (int i = 0; i < windows.size(); i++) {
      String id = workers.get(i).id;
      busyByDevice.add(done.stream().filter(d -> d.worker().equals(id)).map(d -> new double[] {d.started(), d.finished()})
          .toList());
    }
    double[] idle = FleetSchedule.idleWhileWaiting(busyByDevice, windows, done.stream().mapToDouble(Done::started)
        .toArray(), Double.isNaN(wall) ? lastFinished : wall);
    for (int i = 0; i < idle.length && i < perWorker.size(); i++) {
      String[] row = java.util.Arrays.copyOf(perWorker.get(i), perWorker.get(i).length + 1);
      row[row.length - 1] = f(idle[i], 1);
      perWorker.set(i, row);
    }
    for (int i = idle.length; i < perWorker.size(); i++) {
      String[] row = java.util.Arrays.copyOf(perWorker.get(i), perWorker.get(i).length + 1);
      row[row.length - 1] = "-";
      perWorker.set(i, row);
    }
    return new RunReport(run, complete, done.size(), duplicates, wall, lastFinished, fluid, discrete, join, sigterm,
        exit, supplied, deviceSeconds, committedCompute, deviceSeconds - committedCompute, String.join("; ", caveats),
        executions, completed, failed, cancelled, handedBack, attempts, joinFirstStart, leaverLast,
        java.util.Arrays.stream(idle).sum(), loadBefore, loadAfter, events(workers, zero, done, wall), perWorker, perTask,
        chart(workers, windows, done, Double.isNaN(wall) ? lastFinished : wall), dir);
  }

  /** The membership events, from the harness and the workers' own logs. */
  private List<String[]> events(List<FleetWorker> workers, double zero, List<Done> done, double wall) {
    List<Object[]> ev = new ArrayList<>();
    ev.add(new Object[] {0.0, "harness", "published " + tasks + " tasks of " + workMs + " ms"});
    for (FleetWorker w : workers) {
      if (w.launched() - zero > 0) {
        ev.add(new Object[] {w.launched() - zero, "harness", "started " + w.id + " (child JVM)"});
      }
      if (!Double.isNaN(w.sigterm()) && w.sigterm() - zero < (Double.isNaN(wall) ? Double.MAX_VALUE : wall)) {
        ev.add(new Object[] {w.sigterm() - zero, "harness", "SIGTERM to " + w.id});
      }
      if (!Double.isNaN(w.exited()) && w.exited() - zero < (Double.isNaN(wall) ? Double.MAX_VALUE : wall + 0.5)) {
        ev.add(new Object[] {w.exited() - zero, "harness", w.id + " exited (status " + w.exitCode() + ")"});
      }
      for (FleetWorker.Line l : w.lines()) {
        double t = l.t() - zero;
        if (t < 0 || (!Double.isNaN(wall) && t > wall + 0.5)) {
          continue;
        }
        String s = l.text();
        if (s.startsWith("worker " + w.id + ": serving")) {
          ev.add(new Object[] {t, w.id, "serving (its share consumers join the group)"});
        } else if (s.contains(" WARN ") || s.contains(" ERROR ") || s.contains(": stopped")) {
          ev.add(new Object[] {t, w.id, s.replaceFirst("^\\d\\d:\\d\\d:\\d\\d\\.\\d+ ", "")});
        }
      }
    }
    if (!Double.isNaN(wall)) {
      ev.add(new Object[] {wall, "harness", "last result received"});
    }
    ev.sort(Comparator.comparingDouble(e -> (double) e[0]));
    return ev.stream().map(e -> new String[] {f((double) e[0], 2), (String) e[1], (String) e[2]}).toList();
  }

  /** One text row per worker: '#' committed work, '.' available but not on committed work. */
  private static List<String> chart(List<FleetWorker> workers, List<Window> windows, List<Done> done, double end) {
    List<String> out = new ArrayList<>();
    if (Double.isNaN(end)) {
      return out;
    }
    double step = Math.max(1, Math.ceil(end / 120));
    out.add("     " + FleetSchedule.axis(end, step, (int) (10 * step)));
    for (int i = 0; i < workers.size() && i < windows.size(); i++) {
      String id = workers.get(i).id;
      List<double[]> busy = done.stream().filter(d -> d.worker().equals(id))
          .map(d -> new double[] {d.started(), d.finished()}).toList();
      out.add(String.format(Locale.ROOT, "%-4s %s", id, FleetSchedule.chart(busy, windows.get(i), end, step)));
    }
    out.add(String.format(Locale.ROOT, "     (1 column = %.0f s; '#' a task that committed, '.' available otherwise)", step));
    return out;
  }

  private Rows perWorkerTable(RunReport r) {
    Rows t = Rows.of("worker", "last scrape s", "device s", "results", "their compute s", "device - compute s",
        "executions", "cancelled", "handed back", "starts", "idle while tasks waited s");
    r.perWorker().forEach(t::add);
    return t;
  }

  /** What one run found, for a terminal: its events, the device chart and the per-worker table. */
  public String runText(RunReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%nrun %d: %s%n", r.run(), r.complete() ? "complete" : "INCOMPLETE: only "
        + r.unique() + " of " + tasks + " results"));
    Rows ev = Rows.of("t s", "who", "event");
    r.events().forEach(ev::add);
    sb.append(ev.text()).append('\n');
    r.chart().forEach(l -> sb.append(l).append('\n'));
    sb.append('\n').append(perWorkerTable(r).text());
    if (!r.wasteCaveat().isEmpty()) {
      sb.append("caveat: ").append(r.wasteCaveat()).append('\n');
    }
    return sb.toString();
  }

  /** The runs side by side, for a terminal. */
  public String summaryText(List<RunReport> reports) {
    return summaryTable(reports).text();
  }

  private Rows summaryTable(List<RunReport> reports) {
    Rows t = Rows.of("run", "wall s", "ideal s", "wall/ideal", "discrete ideal s", "idle device-s while tasks waited",
        "join: serving->1st task s", "leave: SIGTERM->exit s", "wasted device-s", "executions", "cancelled",
        "dup. results");
    for (RunReport r : reports) {
      t.add(String.valueOf(r.run()), f(r.wall(), 1), f(r.fluidIdeal(), 1), pct(r.ofIdeal()), f(r.discreteIdeal(), 1),
          f(r.idleWhileWaiting(), 1), f(r.joinFirstStart() - r.join(), 1), f(r.leaveExit() - r.leaveSigterm(), 1),
          f(r.wasted(), 1), f(r.executions(), 0) + "/" + tasks, f(r.cancelled(), 0),
          String.valueOf(r.duplicatesCommitted()));
    }
    return t;
  }

  /** One line per run: wall time against the ideal and wasted device time, each against its goal. */
  public String verdict(List<RunReport> reports) {
    double task = workMs / 1e3;
    StringBuilder sb = new StringBuilder();
    for (RunReport r : reports) {
      sb.append(String.format(Locale.ROOT,
          "run %d: wall %.1f s = %s of the ideal %.1f s (goal: within 10%%: %s); wasted %s device-s = %s tasks for 1"
              + " departure (goal: at most 1 task: %s); %.0f executions for %d tasks, %d duplicate results%n",
          r.run(), r.wall(), pct(r.ofIdeal()), r.fluidIdeal(), r.ofIdeal() <= 1.10 ? "met" : "NOT met", f(r.wasted(), 1),
          f(r.wasted() / task, 2), r.wasted() <= task ? "met" : "NOT met", r.executions(), tasks, r.duplicatesCommitted()));
    }
    return sb.toString().stripTrailing();
  }

  /**
   * The report as Markdown: the command ({@code args}), {@code commit} and {@code started} as the
   * run's provenance, the scenario, the summary and each run in detail.
   */
  public String markdown(List<RunReport> reports, String args, String started, String commit) {
    StringBuilder md = new StringBuilder();
    md.append("# Fleet benchmark: long tasks on an elastic fleet\n\n");
    md.append("Command: `expresso ").append(args).append("`  \n");
    md.append("Commit: `").append(commit).append("` (`git describe` where it ran, at its start)  \n");
    md.append("Date: ").append(started).append("  \n");
    md.append("Machine: ").append(machine()).append("\n\n");
    md.append(String.format(Locale.ROOT, """
        Scenario: %s, %d partition(s) of the task topic; workers `w1`, `w2`
        (`expresso worker --devices cpu:1%s`, child JVMs, one share consumer each) join the share group before the
        publish; %d synthetic tasks of %d ms busy-work (%.0f device-s of work); `w3` is started %s after the
        publish and `w1` gets SIGTERM %s after it. Wall time: publish to the last unique result at the
        aggregator. Ideal: the time by which the devices available (w1 and w2 from the publish, w3 from its
        `serving` line, w1 until its process exited) supply the work, as if it were divisible; the discrete
        ideal schedules the indivisible tasks greedily on the same windows (w1 may start tasks until its
        SIGTERM). Wasted device-s: the sum over workers of `expresso_device_busy_seconds_total` plus the
        running task's `expresso_device_task_age_seconds` at each worker's last scrape (every 200 ms, every
        25 ms once it got SIGTERM, and just before each SIGTERM) plus committed work after that scrape, minus the `provenance.compute_seconds`
        of the unique committed results. Executions: `expresso_tasks_received_total` summed over workers.
        Duplicate results: results of a task after its first, as the aggregator saw them (at-least-once
        delivery: a task whose acknowledgement was lost runs again). Idle device-s while tasks waited: time a device sat idle within its window while some task had not started yet
        (from the results' provenance): the hand-overs plus work queued behind another, busy device.

        """, bootstrap == null ? "an embedded broker in the benchmark's JVM" : "the cluster at " + bootstrap, partitions,
        stopGrace == null ? "" : " --stop-grace " + stopGrace, tasks, workMs, tasks * workMs / 1e3, joinAt, leaveAt));
    md.append("## Summary\n\n").append(summaryTable(reports).markdown()).append('\n');
    md.append(verdict(reports).lines().map(l -> "- " + l).collect(Collectors.joining("\n"))).append("\n\n");
    for (RunReport r : reports) {
      md.append("## Run ").append(r.run()).append(r.complete() ? "" : " (INCOMPLETE: " + r.unique() + " of " + tasks
          + " results)").append("\n\n");
      md.append(String.format(Locale.ROOT, "Load average before/after: %s / %s. Last task finished at %.2f s; its result"
          + " reached the aggregator at %.2f s. Device-s supplied by the windows up to the last result: %.1f; busy:"
          + " %.1f; committed compute: %.1f.%n%n", r.loadBefore(), r.loadAfter(), r.lastFinished(), r.wall(),
          r.suppliedToWall(), r.deviceSeconds(), r.committedCompute()));
      Rows ev = Rows.of("t (s)", "who", "event");
      r.events().forEach(ev::add);
      md.append(ev.markdown()).append('\n');
      md.append("```\n");
      r.chart().forEach(l -> md.append(l).append('\n'));
      md.append("```\n\n");
      md.append(perWorkerTable(r).markdown()).append('\n');
      if (!r.wasteCaveat().isEmpty()) {
        md.append("Caveat: ").append(r.wasteCaveat()).append("\n\n");
      }
      if (r.perTask().size() <= 100) {
        Rows pt = Rows.of("task", "partition", "worker", "started s", "finished s", "compute s");
        r.perTask().forEach(pt::add);
        md.append("<details><summary>Committed results (provenance)</summary>\n\n").append(pt.markdown())
            .append("\n</details>\n\n");
      }
    }
    return md.toString();
  }

  /** Rows under a header, rendered as a terminal {@link Table} or as a Markdown table. */
  record Rows(String[] header, List<String[]> rows) {
    static Rows of(String... header) {
      return new Rows(header, new ArrayList<>());
    }

    Rows add(String... cells) {
      rows.add(cells);
      return this;
    }

    String text() {
      Table t = new Table(header);
      rows.forEach(t::row);
      return t.render();
    }

    String markdown() {
      StringBuilder sb = new StringBuilder();
      sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
      for (int c = 0; c < header.length; c++) {
        sb.append("---|");
      }
      sb.append('\n');
      for (String[] r : rows) {
        sb.append("| ").append(java.util.Arrays.stream(r).map(x -> x.replace("|", "\\|"))
            .collect(Collectors.joining(" | "))).append(" |\n");
      }
      return sb.toString();
    }
  }

  private static String f(double v, int digits) {
    if (Double.isNaN(v)) {
      return "-";
    }
    String s = String.format(Locale.ROOT, "%." + digits + "f", v);
    return s.matches("-0\\.?0*") ? s.substring(1) : s; // -0.0: a rounding residue, not a sign
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  private static String load() {
    double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return l < 0 ? "-" : String.format(Locale.ROOT, "%.2f", l);
  }

  private static String machine() {
    String cpu = "";
    try {
      cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("");
    } catch (IOException e) {
      // not Linux
    }
    return Runtime.getRuntime().availableProcessors() + " cores" + (cpu.isEmpty() ? "" : " (" + cpu + ")") + ", "
        + System.getProperty("os.name") + ", Java " + System.getProperty("java.version");
  }

  /** {@code git describe --always --dirty} where it runs, or "unknown". */
  public static String commit() {
    try {
      Process p = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
