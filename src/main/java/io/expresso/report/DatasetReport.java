package io.expresso.report;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.expresso.proto.v1.DatasetResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes dataset results to a directory: one JSON line per fold × seed × model (full configuration) and the table. */
public final class DatasetReport {

  private DatasetReport() {}

  public static List<Path> write(Path dir, String name, List<DatasetResult> results) throws IOException {
    Files.createDirectories(dir);
    StringBuilder lines = new StringBuilder();
    JsonFormat.Printer json = JsonFormat.printer().omittingInsignificantWhitespace();
    for (DatasetResult r : results) {
      try {
        lines.append(json.print(r)).append('\n');
      } catch (InvalidProtocolBufferException e) {
        throw new IOException("cannot write a dataset result as JSON: " + e.getMessage(), e);
      }
    }
    String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
    Path jsonl = dir.resolve(safe + ".dataset.jsonl");
    Path table = dir.resolve(safe + ".dataset.txt");
    Files.writeString(jsonl, lines);
    Files.writeString(table, DatasetTable.render(results));
    return new ArrayList<>(List.of(jsonl, table));
  }
}
