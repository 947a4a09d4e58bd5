package io.expresso.runtime.kafka;

import java.nio.charset.StandardCharsets;

/**
 * The task ids a long-lived reader has seen, one flag each, in bounded memory: the readers of
 * {@code up} and {@code watch} run for weeks over millions of results, so they keep 64-bit
 * fingerprints of the ids, not the ids, in at most two generations of open-addressing tables.
 *
 * <p>When the current generation is full ({@code 3/4} of its slots), it becomes the previous one
 * and the one before is dropped. So the window always holds the last {@link #guaranteed()}
 * distinct ids written (touching an id again moves it into the current generation) and never
 * more than twice that, in at most {@code 2 × 8 × slots} bytes ({@link #DEFAULT_SLOTS}: 32 MiB,
 * at least 1,572,864 ids). An id that has left the window reads as never seen. Two ids are
 * confused only when their 63-bit fingerprints collide: probability about n²/2⁶⁴ for n ids in
 * the window (5 × 10⁻⁷ at 3 million). Not thread-safe: each reader guards its own.
 */
public final class TaskIdWindow {

  /** Slots per generation by default: 2²¹ longs, 16 MiB. */
  public static final int DEFAULT_SLOTS = 1 << 21;

  /** {@link #get}: the id is not in the window. */
  public static final int ABSENT = -1;

  private static final int INITIAL_SLOTS = 1 << 10;
  private static final long FLAG = 1L;

  private final int maxSlots;
  private long[] current;
  private int currentSize;
  private long[] previous = new long[0];
  private long rolls;

  /** A window of {@link #DEFAULT_SLOTS} slots per generation. */
  public TaskIdWindow() {
    this(DEFAULT_SLOTS);
  }

  /** @param maxSlots slots per generation, a power of two of at least 4 */
  public TaskIdWindow(int maxSlots) {
    if (maxSlots < 4 || Integer.bitCount(maxSlots) != 1) {
      throw new IllegalArgumentException("slots per generation must be a power of two of at least 4, not " + maxSlots);
    }
    this.maxSlots = maxSlots;
    this.current = new long[Math.min(INITIAL_SLOTS, maxSlots)];
  }

  /** {@link #ABSENT}, or the flag last written for {@code taskId}: 0 or 1. */
  public int get(String taskId) {
    long key = fingerprint(taskId);
    long slot = find(current, key);
    if (slot == 0) {
      slot = find(previous, key);
    }
    return slot == 0 ? ABSENT : (int) (slot & FLAG);
  }

  /** Writes {@code taskId} with {@code flag}; true if the window did not hold it. */
  public boolean put(String taskId, boolean flag) {
    long key = fingerprint(taskId);
    long entry = key | (flag ? FLAG : 0);
    int i = index(current, key);
    while (current[i] != 0) {
      if ((current[i] & ~FLAG) == key) {
        current[i] = entry;
        return false;
      }
      i = (i + 1) & (current.length - 1);
    }
    boolean fresh = find(previous, key) == 0;
    if (currentSize + 1 > current.length / 4 * 3) {
      if (current.length < maxSlots) {
        current = rehash(current, current.length * 2);
      } else {
        previous = current; // the generation before is dropped: this is the bound
        current = new long[Math.min(INITIAL_SLOTS, maxSlots)];
        currentSize = 0;
        rolls++;
      }
      i = index(current, key);
      while (current[i] != 0) {
        i = (i + 1) & (current.length - 1);
      }
    }
    current[i] = entry;
    currentSize++;
    return fresh;
  }

  /** Distinct ids the window is sure to hold: the most recently written this many. */
  public int guaranteed() {
    return maxSlots / 4 * 3;
  }

  /** Bytes held by the tables (what grows with the ids written, up to {@code 16 × slots}). */
  public long retainedBytes() {
    return 8L * (current.length + previous.length);
  }

  /** How many times a full generation was retired (0: nothing was ever forgotten). */
  public long rolls() {
    return rolls;
  }

  private static long find(long[] table, long key) {
    if (table.length == 0) {
      return 0;
    }
    for (int i = index(table, key); table[i] != 0; i = (i + 1) & (table.length - 1)) {
      if ((table[i] & ~FLAG) == key) {
        return table[i];
      }
    }
    return 0;
  }

  private static long[] rehash(long[] from, int slots) {
    long[] to = new long[slots];
    for (long e : from) {
      if (e != 0) {
        int i = index(to, e & ~FLAG);
        while (to[i] != 0) {
          i = (i + 1) & (slots - 1);
        }
        to[i] = e;
      }
    }
    return to;
  }

  private static int index(long[] table, long key) {
    return (int) (key >>> 33) & (table.length - 1);
  }

  /** 63 bits of a 64-bit hash of the id's UTF-8 bytes (FNV-1a, then a murmur3 finaliser), never 0; bit 0 is the flag. */
  static long fingerprint(String taskId) {
    long h = 0xcbf29ce484222325L;
    for (byte b : taskId.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    h &= ~FLAG;
    return h == 0 ? 2 : h;
  }
}
