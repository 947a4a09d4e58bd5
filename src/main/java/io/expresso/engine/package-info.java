/**
 * The native engine under every model: DJL's PyTorch engine and its settings (threads, precision,
 * cuDNN determinism, the allocator), the one maker of DJL devices and models ({@link
 * io.expresso.engine.Devices}), the engine RNG lock, memory budgets and pools, and the measurements
 * of what actually ran (loaded libtorch, peak RSS). Imports no other package of Expresso.
 */
package io.expresso.engine;
