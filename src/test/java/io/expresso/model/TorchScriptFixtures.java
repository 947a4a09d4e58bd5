package io.expresso.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The TorchScript modules examples/torchscript/make_gin.py wrote with Debian's PyTorch 1.13
 * (committed, so that tests need no Python): gin.pt and dense-gin.pt, and the broken ones.
 */
public final class TorchScriptFixtures {

  private TorchScriptFixtures() {}

  /** The fixture's bytes, or an AssertionError naming it. */
  public static byte[] bytes(String name) {
    try (InputStream in = TorchScriptFixtures.class.getResourceAsStream("torchscript/" + name)) {
      if (in == null) {
        throw new AssertionError("test fixture io/expresso/model/torchscript/" + name + " is missing"
            + " (examples/torchscript/make_gin.py --bad writes it)");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A spec over the fixture: {@code torchscript:<name>[,options]}. */
  public static TorchScriptSpec spec(String nameAndOptions) {
    return TorchScriptSpec.parse("torchscript:" + nameAndOptions, TorchScriptFixtures::bytes);
  }
}
