package io.expresso.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Captures System.out and System.err around each test, for asserting what a command printed. */
final class ConsoleCapture implements BeforeEachCallback, AfterEachCallback {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream savedOut;
  private PrintStream savedErr;

  @Override
  public void beforeEach(ExtensionContext context) {
    savedOut = System.out;
    savedErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setOut(savedOut);
    System.setErr(savedErr);
  }

  /** Everything printed to standard output so far. */
  String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Standard error so far, without surrounding whitespace. */
  String err() {
    return err.toString(StandardCharsets.UTF_8).strip();
  }

  /** Forgets standard output so far (between commands in one test). */
  void resetOut() {
    out.reset();
  }

  /** Forgets standard error so far (between commands in one test). */
  void resetErr() {
    err.reset();
  }
}
