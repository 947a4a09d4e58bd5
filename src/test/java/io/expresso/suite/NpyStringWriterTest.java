package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpyStringWriterTest {

  @TempDir Path dir;

  /** bytes.npy is np.save of the fixture list as bytes (NumPy 2): the writer must match it byte for byte. */
  @Test
  void writesWhatNpSaveWritesForAListOfBytes() throws IOException {
    Path f = dir.resolve("mine.npy");
    NpyStringWriter.writeBytes(f, NpyStringArrayTest.GRAPHS);
    assertThat(Files.readAllBytes(f)).isEqualTo(Files.readAllBytes(NpyStringArrayTest.fixture("bytes.npy")));
  }

  @Test
  void headersStayAlignedTo64BytesAndReadBack() throws IOException {
    for (int count : new int[] {1, 9, 10, 99, 51200, 1_000_000}) {
      byte[] h = NpyStringWriter.header(7, count);
      assertThat(h.length % 64).as("count %d", count).isZero();
      assertThat(h[h.length - 1]).isEqualTo((byte) '\n');
    }
    Path f = dir.resolve("mixed.npy");
    List<String> items = List.of("A_", "", "I?h]Gv_C?", "C~");
    NpyStringWriter.writeBytes(f, items);
    assertThat(NpyStringArray.read(f)).isEqualTo(items);
  }

  @Test
  void refusesWhatAByteStringCannotHold() {
    Path f = dir.resolve("bad.npy");
    assertThatThrownBy(() -> NpyStringWriter.writeBytes(f, List.of())).hasMessage("bad.npy: no strings to write");
    assertThatThrownBy(() -> NpyStringWriter.writeBytes(f, List.of("C~", "C\u00e9")))
        .hasMessage("bad.npy entry 1: character U+00E9 cannot be stored as an ASCII byte string");
    assertThatThrownBy(() -> NpyStringWriter.writeBytes(f, List.of("C\0")))
        .hasMessage("bad.npy entry 0: character U+0000 cannot be stored as an ASCII byte string");
  }
}
