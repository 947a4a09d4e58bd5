package io.expresso.cli;

import io.expresso.count.Pattern;
import java.util.Arrays;
import java.util.Iterator;
import picocli.CommandLine;

/** Parses {@code --pattern} values; an unknown name is one line listing the valid ones (exit 2). */
final class PatternConverter implements CommandLine.ITypeConverter<Pattern> {

  @Override
  public Pattern convert(String value) {
    try {
      return Pattern.fromName(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /** The valid names, for help text and shell completion. */
  static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Pattern.values()).map(Pattern::cliName).iterator();
    }
  }
}
