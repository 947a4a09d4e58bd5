package io.expresso.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The yardsticks of {@code expresso bench fleet}: how long the work would take if no time were
 * lost to membership changes, given when devices joined and left. Times are seconds from the
 * publish; a device is a window in which it could work.
 */
final class FleetSchedule {

  private FleetSchedule() {}

  /**
   * A device's window: it may work from {@code from} until {@code until} (fluid) and may start a
   * task until {@code lastStart} (discrete: a leaving device finishes what it started).
   */
  record Window(String name, double from, double until, double lastStart) {
    static Window always(String name) {
      return new Window(name, 0, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    }
  }

  /**
   * The fluid ideal: the time {@code t} at which the integral of the device count from 0 to t
   * equals {@code work} device-seconds (work perfectly divisible, no hand-over cost).
   * Infinite if the devices can never supply it.
   */
  static double fluidIdeal(double work, List<Window> devices) {
    // device count as a step function: +1 at each from, -1 at each until
    TreeMap<Double, Integer> steps = new TreeMap<>();
    for (Window w : devices) {
      steps.merge(w.from(), 1, Integer::sum);
      if (Double.isFinite(w.until())) {
        steps.merge(w.until(), -1, Integer::sum);
      }
    }
    double left = work;
    double t = 0;
    int n = 0;
    for (Map.Entry<Double, Integer> e : steps.entrySet()) {
      double next = Math.max(0, e.getKey());
      if (n > 0 && next > t) {
        double supply = n * (next - t);
        if (supply >= left) {
          return t + left / n;
        }
        left -= supply;
      }
      t = Math.max(t, next);
      n += e.getValue();
    }
    return n > 0 ? t + left / n : Double.POSITIVE_INFINITY;
  }

  /** Device-seconds the windows supply between 0 and {@code end}. */
  static double supplied(List<Window> devices, double end) {
    double s = 0;
    for (Window w : devices) {
      s += Math.max(0, Math.min(end, w.until()) - Math.max(0, w.from()));
    }
    return s;
  }

  /**
   * The discrete ideal: {@code tasks} indivisible tasks of {@code seconds} each, each started as
   * soon as any device is free within its start window (for identical tasks this greedy schedule
   * has the shortest makespan). Returns the makespan, infinite if the tasks cannot all start.
   */
  static double discreteIdeal(int tasks, double seconds, List<Window> devices) {
    double[] free = new double[devices.size()];
    for (int i = 0; i < free.length; i++) {
      free[i] = Math.max(0, devices.get(i).from());
    }
    double makespan = 0;
    for (int k = 0; k < tasks; k++) {
      int best = -1;
      for (int i = 0; i < free.length; i++) {
        if (free[i] < devices.get(i).lastStart() && (best < 0 || free[i] < free[best])) {
          best = i;
        }
      }
      if (best < 0) {
        return Double.POSITIVE_INFINITY;
      }
      free[best] += seconds;
      makespan = Math.max(makespan, free[best]);
    }
    return makespan;
  }

  /**
   * Device-seconds each device sat idle within its window while some task had not started yet
   * (it waited in a queue somewhere): the time lost to hand-overs and to work stuck behind a busy
   * device. {@code busy.get(i)} are device i's task intervals, {@code starts} every task's start.
   */
  static double[] idleWhileWaiting(List<List<double[]>> busy, List<Window> windows, double[] starts, double end) {
    double step = 0.01;
    double[] sorted = starts.clone();
    Arrays.sort(sorted);
    double[] idle = new double[windows.size()];
    int startedSoFar = 0;
    for (double t = step / 2; t < end; t += step) {
      while (startedSoFar < sorted.length && sorted[startedSoFar] <= t) {
        startedSoFar++;
      }
      if (startedSoFar == sorted.length) {
        break; // every task has started: idle devices now have nothing they could do
      }
      for (int i = 0; i < windows.size(); i++) {
        Window w = windows.get(i);
        if (t < w.from() || t >= w.until()) {
          continue;
        }
        boolean working = false;
        for (double[] iv : busy.get(i)) {
          if (iv[0] <= t && t < iv[1]) {
            working = true;
            break;
          }
        }
        if (!working) {
          idle[i] += step;
        }
      }
    }
    return idle;
  }

  /** One line of Prometheus text exposition: metric name (labels dropped) and value, or null for comments and blanks. */
  static Map.Entry<String, Double> parseLine(String line) {
    String l = line.trim();
    if (l.isEmpty() || l.startsWith("#")) {
      return null;
    }
    String name;
    String rest;
    int brace = l.indexOf('{');
    int space = l.indexOf(' ');
    if (brace >= 0 && (space < 0 || brace < space)) {
      name = l.substring(0, brace);
      int close = closingBrace(l, brace);
      if (close < 0) {
        return null;
      }
      rest = l.substring(close + 1).trim();
    } else if (space > 0) {
      name = l.substring(0, space);
      rest = l.substring(space + 1).trim();
    } else {
      return null;
    }
    String[] parts = rest.split("\\s+");
    try {
      return Map.entry(name, Double.parseDouble(parts[0]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The brace closing the label set opened at {@code open}, skipping quoted label values. */
  private static int closingBrace(String l, int open) {
    boolean quoted = false;
    for (int i = open + 1; i < l.length(); i++) {
      char c = l.charAt(i);
      if (quoted && c == '\\') {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == '}') {
        return i;
      }
    }
    return -1;
  }

  /** Sums every sample of each metric name over its label sets. */
  static Map<String, Double> sums(String exposition) {
    Map<String, Double> out = new TreeMap<>();
    for (String line : exposition.split("\n")) {
      Map.Entry<String, Double> e = parseLine(line);
      if (e != null && !e.getValue().isNaN()) {
        out.merge(e.getKey(), e.getValue(), Double::sum);
      }
    }
    return out;
  }

  /**
   * A text Gantt chart line: for each {@code step}-second cell from 0 to {@code end}, {@code '#'}
   * if any interval covers at least half of it, {@code '.'} if the device was available, blank
   * if it was not.
   */
  static String chart(List<double[]> busy, Window window, double end, double step) {
    int cells = (int) Math.ceil(end / step);
    char[] row = new char[cells];
    Arrays.fill(row, ' ');
    for (int c = 0; c < cells; c++) {
      double a = c * step;
      double b = a + step;
      double covered = 0;
      for (double[] iv : busy) {
        covered += Math.max(0, Math.min(b, iv[1]) - Math.max(a, iv[0]));
      }
      double avail = Math.max(0, Math.min(b, window.until()) - Math.max(a, window.from()));
      if (covered >= step / 2) {
        row[c] = '#';
      } else if (avail >= step / 2) {
        row[c] = '.';
      }
    }
    return new String(row).replaceAll("\\s+$", "");
  }

  /** A time axis for {@link #chart}: a tick label every {@code every} seconds. */
  static String axis(double end, double step, int every) {
    int cells = (int) Math.ceil(end / step);
    List<Character> row = new ArrayList<>();
    for (int c = 0; c < cells; c++) {
      row.add(' ');
    }
    for (int s = 0; s < end; s += every) {
      int c = (int) Math.round(s / step);
      String label = s + "s";
      if (c + label.length() > cells) {
        break;
      }
      for (int i = 0; i < label.length(); i++) {
        row.set(c + i, label.charAt(i));
      }
    }
    StringBuilder sb = new StringBuilder();
    row.forEach(sb::append);
    return sb.toString().replaceAll("\\s+$", "");
  }
}
