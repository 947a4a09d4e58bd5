package io.expresso.model;

import static io.expresso.model.BrecModelChecks.assertRefusedInOneLine;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each architecture's keys ({@link Architecture#keys}) are what its specs may set: the rest is refused in one line naming why. */
class ArchitectureKeysTest {

  @ParameterizedTest
  @EnumSource(Architecture.class)
  void takesItsKeysAndRefusesEveryOtherNamingIt(Architecture a) {
    ModelSpec defaults = ModelSpec.defaults(a);
    assertThat(a.keys()).contains("layers", "hidden", "d", "budget");
    for (String key : ModelSpec.KEYS) {
      if (a.takes(key)) {
        assertThat(a.refusal(key)).as(key).isEmpty();
      } else {
        String refusal = a.refusal(key).orElseThrow(() -> new AssertionError(a.cliName() + " gives no reason to refuse " + key));
        assertRefusedInOneLine(a.cliName() + ":" + key + "=1", key + " is ", refusal);
      }
    }
    assertThat(a.refusal("transpose")).isEmpty();
    assertThat(ModelSpec.parse(defaults.toText())).isEqualTo(defaults);
  }
}
