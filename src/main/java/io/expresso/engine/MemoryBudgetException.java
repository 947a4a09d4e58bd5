package io.expresso.engine;

/** The smallest possible pass does not fit in the device's memory budget. */
public final class MemoryBudgetException extends IllegalStateException {

  public MemoryBudgetException(String message) {
    super(message);
  }
}
