package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LauncherSettingsTest {

  @Test
  void bothSettingsInForceSayNothing() {
    assertThat(LauncherSettings.note("1", List.of("-Xmx2g", "-XX:TieredStopAtLevel=1"))).isEmpty();
  }

  @Test
  void aPlainJavaJarNamesWhatItLacks() {
    assertThat(LauncherSettings.note(null, List.of("-Xmx2g"))).hasValueSatisfying(n -> assertThat(n)
        .startsWith("started without MALLOC_ARENA_MAX=1 and -XX:TieredStopAtLevel=1, which scripts/expresso sets"));
    assertThat(LauncherSettings.note("1", List.of())).hasValueSatisfying(n -> assertThat(n)
        .startsWith("started without -XX:TieredStopAtLevel=1,"));
  }
}
