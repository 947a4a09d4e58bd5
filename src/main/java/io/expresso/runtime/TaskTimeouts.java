package io.expresso.runtime;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The longest one task of each kind may run on a device, counted from the moment it starts there
 * (not from when it was published or queued). A task past its limit is cancelled and ends as an
 * error result naming the limit.
 */
public record TaskTimeouts(Map<TaskKind, Duration> limits) {

  /** Defaults sized for the real workload: a BREC pair trains for minutes, a count model for hours. */
  public static final TaskTimeouts DEFAULTS = new TaskTimeouts(Map.of(
      TaskKind.PAIR, Duration.ofHours(2),
      TaskKind.TRAIN, Duration.ofHours(24),
      TaskKind.ATTACK, Duration.ofHours(12),
      TaskKind.SYNTHETIC, Duration.ofMinutes(15),
      TaskKind.DATASET, Duration.ofHours(13))); // the benchmarking protocol's 12-hour cap, then evaluation

  public TaskTimeouts {
    Map<TaskKind, Duration> all = new EnumMap<>(TaskKind.class);
    for (TaskKind k : TaskKind.values()) {
      Duration d = limits.containsKey(k) ? limits.get(k) : DEFAULTS == null ? null : DEFAULTS.limits().get(k);
      if (d != null) {
        if (d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("the " + k.label() + " task timeout must be positive, got " + d);
        }
        all.put(k, d);
      }
    }
    limits = Map.copyOf(all);
  }

  public Duration of(TaskKind kind) {
    return limits.get(kind);
  }

  /**
   * Parses {@code kind=duration,...} over the defaults, e.g. {@code pair=30m,train=12h}; durations
   * are a number with unit ms, s, m or h.
   */
  public static TaskTimeouts parse(String spec) {
    Map<TaskKind, Duration> m = new EnumMap<>(DEFAULTS.limits());
    if (spec == null || spec.isBlank()) {
      return DEFAULTS;
    }
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("task timeout '" + part + "' is not kind=duration (e.g. pair=30m)");
      }
      TaskKind kind = null;
      for (TaskKind k : TaskKind.values()) {
        if (k.label().equals(kv[0].trim())) {
          kind = k;
        }
      }
      if (kind == null) {
        throw new IllegalArgumentException("task timeout '" + part + "': unknown task kind '" + kv[0].trim()
            + "'; use pair, train, attack or synthetic");
      }
      m.put(kind, duration(kv[1].trim()));
    }
    return new TaskTimeouts(m);
  }

  /** Parses {@code 500ms}, {@code 90s}, {@code 30m}, {@code 2h}. */
  public static Duration duration(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      } else if (t.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      } else if (t.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      } else if (t.endsWith("h")) {
        return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new IllegalArgumentException("duration '" + text + "' is not a whole number with unit ms, s, m or h (e.g. 90s, 2h)");
  }

  /** A duration as people write it: 2h, 15m, 90s, 500ms. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    } else if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    } else if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
