package io.expresso.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TorchThreadStateTest {

  @AfterEach
  void settleAsTheProcessWould() {
    TorchThreadState.settleForTest(System.getProperty(TorchThreadState.PROPERTY, "caller"),
        System.getenv(TorchThreadState.LIBRARY_ENV));
  }

  @Test
  void withoutTheLibraryBackwardStaysWherePyTorchPutsItAndSaysHowToGetIt() {
    TorchThreadState.Status s = TorchThreadState.settleForTest("caller", null);
    assertFalse(s.callerBackward());
    assertTrue(s.text().contains("no " + TorchThreadState.LIBRARY_ENV + ": scripts/gpu-setup builds the library"),
        s.text());
    TorchThreadState.keepBackwardOnThisThread(); // nothing to set: no native call without the library
  }

  @Test
  void aLibraryPathThatIsNotAFileIsNamedNotLoaded(@TempDir Path dir) {
    Path missing = dir.resolve("libexpresso_torch_threads.so");
    TorchThreadState.Status s = TorchThreadState.settleForTest("caller", missing.toString());
    assertFalse(s.callerBackward());
    assertTrue(s.text().contains(missing + ": no such file; run scripts/gpu-setup"), s.text());
  }

  @Test
  void aFileThatIsNoLibrarySaysItDidNotLoad(@TempDir Path dir) throws Exception {
    Path junk = Files.writeString(dir.resolve("libexpresso_torch_threads.so"), "not an ELF file");
    TorchThreadState.Status s = TorchThreadState.settleForTest("caller", junk.toString());
    assertFalse(s.callerBackward());
    assertTrue(s.text().contains(junk + " did not load: "), s.text());
  }

  @Test
  void deviceLeavesPyTorchsDefaultEvenWithTheLibrary(@TempDir Path dir) throws Exception {
    Path lib = Files.writeString(dir.resolve("libexpresso_torch_threads.so"), "never loaded");
    TorchThreadState.Status s = TorchThreadState.settleForTest("device", lib.toString());
    assertFalse(s.callerBackward());
    assertTrue(s.text().endsWith("(-D" + TorchThreadState.PROPERTY + "=device)"), s.text());
  }

  @Test
  void anUnknownSettingIsRefusedNamingTheProperty() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TorchThreadState.settleForTest("gpu", null));
    assertEquals("-D" + TorchThreadState.PROPERTY + "=gpu: give caller (the default) or device", e.getMessage());
  }
}
