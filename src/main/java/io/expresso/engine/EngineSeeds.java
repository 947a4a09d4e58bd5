package io.expresso.engine;

import ai.djl.engine.Engine;

/**
 * The one lock on the engine's random generator. PyTorch's generator is global to the process, so
 * seeding it and drawing initial weights must happen as one step that no other thread's seeding
 * can interleave with; every place that seeds the engine goes through here.
 */
public final class EngineSeeds {

  private static final Object LOCK = new Object();

  private EngineSeeds() {}

  /** Seeds the engine's generator from {@code seed} and runs {@code draw} before any other thread may seed it. */
  public static void seeded(long seed, Runnable draw) {
    synchronized (LOCK) {
      NativeEngine.start();
      Engine.getEngine(NativeEngine.ENGINE).setRandomSeed((int) (seed ^ (seed >>> 32)));
      draw.run();
    }
  }
}
