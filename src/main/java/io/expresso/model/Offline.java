package io.expresso.model;

/**
 * The former name of {@link EngineDefaults}, kept so branches written against it still build.
 *
 * @deprecated use {@link EngineDefaults#apply()}
 */
@Deprecated
public final class Offline {

  private Offline() {}

  /** Same as {@link EngineDefaults#apply()}. */
  public static void ensure() {
    EngineDefaults.apply();
  }
}
