package io.expresso.cli;

import io.expresso.runtime.DeviceSlot;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Option checks the streaming commands share; a failed check is bad usage (exit code 2). */
final class UsageChecks {

  private UsageChecks() {}

  /** The devices of a {@code --devices} value ({@code auto}, {@code cpu:N}, {@code gpu:0,gpu:1}, {@code gpu:0x4}). */
  static List<DeviceSlot> devices(CommandSpec spec, String text) {
    try {
      return DeviceSlot.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** Rejects a port option outside 0..65535 (0 meaning any free port). */
  static void port(CommandSpec spec, String option, int port) {
    if (port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(spec.commandLine(), option + " " + port + " is not a TCP port (0..65535)");
    }
  }

  /**
   * The ports of a port-or-range option: {@code N} (0 = any free port) or {@code A-B}, the first
   * free one of A..B; anything else is bad usage.
   */
  static int[] portRange(CommandSpec spec, String option, String text) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,5})(?:-(\\d{1,5}))?").matcher(text.strip());
    if (m.matches()) {
      int first = Integer.parseInt(m.group(1));
      int last = m.group(2) == null ? first : Integer.parseInt(m.group(2));
      if (last <= 65535 && first <= last && (first > 0 || last == 0)) {
        return new int[] {first, last};
      }
    }
    throw new CommandLine.ParameterException(spec.commandLine(), option + " " + text
        + " is not a TCP port (0..65535) or a range of them (A-B, 1 <= A <= B)");
  }

  /** Rejects an integer option outside {@code min..max}. */
  static void range(CommandSpec spec, String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new CommandLine.ParameterException(spec.commandLine(), option + " " + value + " outside " + min + ".." + max);
    }
  }
}
