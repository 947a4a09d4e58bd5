package io.expresso.train;

/**
 * How one pair used memory.
 *
 * @param budgetBytes the device's memory budget for one pass
 * @param trainingGraphsPerPass graphs per training pass (micro-batch) under the budget
 * @param inferenceGraphsPerPass graphs per embedding pass under the budget
 * @param peakRssBytes the process's peak resident memory while the pair ran (-1 where unknown;
 *     work on other devices of the same process counts too)
 */
public record MemoryUse(long budgetBytes, int trainingGraphsPerPass, int inferenceGraphsPerPass, long peakRssBytes) {}
