package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code runtime/} uses {@code runtime/kafka/} (topic names, clients), so {@code runtime/kafka/} must not
 * use {@code runtime/} or the worker back: one direction between the rooms, no import circle.
 */
class NoImportCircleTest {

  /** A reference to a class of io.expresso.runtime or io.expresso.runtime.actors, imported or written out. */
  private static final Pattern RUNTIME_CLASS = Pattern.compile("io\\.expresso\\.runtime\\.(actors\\b|[A-Z])");

  @Test
  void runtimeKafkaReferencesNeitherTheRuntimeCoreNorTheWorker() throws IOException {
    Path room = Path.of("src/main/java/io/expresso/runtime/kafka");
    assertThat(room).isDirectory();
    List<String> offending;
    try (Stream<Path> files = Files.list(room)) {
      offending = files.filter(f -> f.toString().endsWith(".java")).flatMap(f -> {
        try {
          return Files.readAllLines(f).stream().filter(l -> RUNTIME_CLASS.matcher(l).find())
              .map(l -> f.getFileName() + ": " + l.trim());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
    }
    assertThat(offending).as("runtime/kafka referring back to runtime/").isEmpty();
  }
}
