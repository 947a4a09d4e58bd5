package io.expresso.engine;

import ai.djl.pytorch.jni.JniUtils;

/**
 * Run in a fresh JVM by {@link NativeEngineTest} (the engine starts once per process): starts the
 * engine and prints what it recorded beside what PyTorch says. With {@code djl-first}, DJL's engine
 * is loaded before (without Expresso's settings) and the thread count is set only after, as a
 * library that touched DJL first would leave it.
 */
public final class NativeEngineProbe {

  private NativeEngineProbe() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("djl-first")) {
      ai.djl.engine.Engine.getEngine("PyTorch");
      System.out.println("before=" + JniUtils.getNumThreads());
      System.setProperty(ThreadPolicy.PROPERTY, args[1]);
    }
    EngineState s = NativeEngine.start();
    System.out.println("recorded=" + s.intraOpThreads());
    System.out.println("torch=" + JniUtils.getNumThreads());
    System.out.println("same=" + (NativeEngine.start() == s));
  }
}
