/**
 * The native engine under every model: DJL's PyTorch engine, entered once ({@link
 * io.expresso.engine.NativeEngine#start}, which says what it set up: {@link
 * io.expresso.engine.EngineState}), and its settings (threads, decided in {@link
 * io.expresso.engine.ThreadPolicy}; precision, cuDNN determinism, the allocator), the one maker of DJL devices and models ({@link
 * io.expresso.engine.Devices}), the engine RNG lock, memory budgets and pools, and the measurements
 * of what actually ran (loaded libtorch, peak RSS). Imports no other package of Expresso.
 */
package io.expresso.engine;
