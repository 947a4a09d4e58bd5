package io.expresso.attack;

import io.expresso.count.DeltaFlipCounter;
import io.expresso.count.FlipCounter;
import io.expresso.count.InducedCounts;
import io.expresso.count.MutableGraph;
import io.expresso.count.Pattern;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Beam search over edge flips (Campi et al., Alg. 1; width 1 is the greedy search). Each step
 * expands every single flip of every beam member (or a degree-weighted sample), keeps those in the
 * perturbation space, updates their exact counts incrementally, scores all of them with one
 * batched model call, and keeps the k distinct graphs of largest loss |f − C|.
 *
 * <p>A beam member never flips the same pair twice, so after t steps it is at distance exactly t
 * from the clean graph. The search runs the whole budget Δ, as the paper's Algorithm 1 does, and
 * records after every step the best graph of the beam: the return value of the attack with that
 * budget, since a search with budget Δ is a prefix of one with a larger budget (the pair sampling
 * is seeded per search, so the prefix holds with sampling too). It ends early only when no member
 * has an admissible flip left. Ties in loss keep the earlier candidate (members in beam order,
 * pairs in lexicographic order).
 *
 * <p>Cancellation is cooperative: the token is checked before every step and before expanding
 * each beam member, and a set token ends the search with {@link CancellationException}.
 */
public final class BeamSearchAttack {

  private final AttackConfig config;
  private final FlipCounter counter;
  private final DeltaFlipCounter through = new DeltaFlipCounter();

  /** An attack that updates counts with {@link DeltaFlipCounter}. */
  public BeamSearchAttack(AttackConfig config) {
    this(config, new DeltaFlipCounter());
  }

  /** An attack that updates counts with the given counter (e.g. the ego-net reference). */
  public BeamSearchAttack(AttackConfig config, FlipCounter counter) {
    this.config = config;
    this.counter = counter;
  }

  public AttackConfig config() {
    return config;
  }

  private static final class Member {
    final MutableGraph graph;
    final long count;
    final BitSet flipped;

    Member(MutableGraph graph, long count, BitSet flipped) {
      this.graph = graph;
      this.count = count;
      this.flipped = flipped;
    }
  }

  private record Candidate(Member parent, int i, int j, long count, Graph graph) {}

  /** Attacks {@code clean} against {@code model}. Not thread-safe: one instance per thread. */
  public AttackResult attack(Graph clean, CountModel model) {
    return attack(clean, model, () -> false);
  }

  /**
   * As {@link #attack(Graph, CountModel)}, checking {@code cancelled} before every step and every
   * member's expansion.
   *
   * @throws CancellationException once {@code cancelled} is true
   */
  public AttackResult attack(Graph clean, CountModel model, BooleanSupplier cancelled) {
    Pattern p = config.pattern();
    AdversarialRule rule = config.rule();
    int n = clean.n();
    long cleanCount = InducedCounts.count(clean, p);
    double cleanPrediction = predict(model, List.of(clean))[0];
    double cleanLoss = AdversarialRule.loss(cleanPrediction, cleanCount);
    String cleanG6 = Graph6.encode(clean);
    List<Double> history = new ArrayList<>(List.of(cleanLoss));
    List<AttackResult.Step> steps = new ArrayList<>();
    if (!AdversarialRule.correct(cleanPrediction, cleanCount)) {
      return result(cleanG6, cleanCount, cleanPrediction, false, 0, steps, history, 0, 0);
    }
    SplitMix64 rnd = new SplitMix64(config.seed());
    List<Member> beam = List.of(new Member(MutableGraph.of(clean), cleanCount, new BitSet()));
    int firstAdversarial = 0;
    long evaluated = 0;
    long counted = 0;
    for (int step = 1; step <= config.budget(); step++) {
      List<Candidate> candidates = new ArrayList<>();
      for (int member = 0; member < beam.size(); member++) {
        // Expanding one member counts up to n²/2 flips: check per member, not just per step.
        if (cancelled.getAsBoolean()) {
          throw new CancellationException("beam search cancelled in step " + step + " of " + config.budget()
              + ", before expanding member " + (member + 1) + " of " + beam.size());
        }
        Member m = beam.get(member);
        for (int pair : pairsToExpand(m, n, rnd)) {
          int i = pair / n;
          int j = pair % n;
          counted++;
          if (!config.space().admitsFlip(through, m.graph, p, i, j)) {
            continue;
          }
          long newCount = counter.countAfterFlip(m.graph, p, m.count, i, j);
          m.graph.flip(i, j);
          Graph g = m.graph.toGraph();
          m.graph.flip(i, j);
          candidates.add(new Candidate(m, i, j, newCount, g));
        }
      }
      if (candidates.isEmpty()) {
        break; // the space is empty around every member
      }
      List<Graph> graphs = new ArrayList<>(candidates.size());
      for (Candidate c : candidates) {
        graphs.add(c.graph);
      }
      double[] predictions = predict(model, graphs);
      evaluated += candidates.size();
      double[] loss = new double[candidates.size()];
      for (int c = 0; c < candidates.size(); c++) {
        loss[c] = AdversarialRule.loss(predictions[c], candidates.get(c).count);
        if (Double.isNaN(loss[c])) {
          loss[c] = Double.NEGATIVE_INFINITY; // a NaN prediction never leads the beam
        }
        if (firstAdversarial == 0
            && rule.isAdversarial(cleanPrediction, cleanCount, predictions[c], candidates.get(c).count)) {
          firstAdversarial = step;
        }
      }
      List<Integer> order = new ArrayList<>(candidates.size());
      for (int c = 0; c < candidates.size(); c++) {
        order.add(c);
      }
      order.sort(Comparator.comparingDouble((Integer c) -> loss[c]).reversed()); // stable
      List<Member> next = new ArrayList<>(config.beamWidth());
      Set<Graph> kept = new HashSet<>();
      for (int c : order) {
        if (next.size() == config.beamWidth()) {
          break;
        }
        Candidate cand = candidates.get(c);
        if (!kept.add(cand.graph)) {
          continue; // the same graph reached through another member
        }
        if (next.isEmpty()) { // the beam's best: what the attack with budget `step` returns
          steps.add(new AttackResult.Step(Graph6.encode(cand.graph), cand.count, predictions[c],
              rule.isAdversarial(cleanPrediction, cleanCount, predictions[c], cand.count)));
          history.add(loss[c]);
        }
        MutableGraph g = cand.parent.graph.copy();
        g.flip(cand.i, cand.j);
        BitSet flipped = (BitSet) cand.parent.flipped.clone();
        flipped.set(cand.i * n + cand.j);
        next.add(new Member(g, cand.count, flipped));
      }
      beam = next;
    }
    return result(cleanG6, cleanCount, cleanPrediction, true, firstAdversarial, steps, history, evaluated,
        counted);
  }

  /** Pair codes i·n + j (i &lt; j) not yet flipped by {@code m}: all, or a degree-weighted sample. */
  private int[] pairsToExpand(Member m, int n, SplitMix64 rnd) {
    int total = n * (n - 1) / 2 - m.flipped.cardinality();
    int limit = config.candidatesPerMember();
    if (limit == 0 || total <= limit) {
      int[] out = new int[total];
      int k = 0;
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          if (!m.flipped.get(i * n + j)) {
            out[k++] = i * n + j;
          }
        }
      }
      return out;
    }
    // Sample ∝ d(i)² + d(j)² (Campi et al. §5.2); uniform if every weight is zero.
    int pairs = n * (n - 1) / 2;
    int[] code = new int[pairs];
    double[] cumulative = new double[pairs];
    double sum = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
      long di = m.graph.degree(i);
      for (int j = i + 1; j < n; j++) {
        long dj = m.graph.degree(j);
        boolean allowed = !m.flipped.get(i * n + j);
        sum += allowed ? di * di + dj * dj : 0;
        code[k] = i * n + j;
        cumulative[k++] = sum;
      }
    }
    boolean uniform = sum == 0;
    BitSet chosen = new BitSet();
    for (int draw = 0; draw < limit; draw++) {
      int idx;
      if (uniform) {
        do {
          idx = rnd.nextInt(pairs);
        } while (m.flipped.get(code[idx]));
      } else {
        double r = rnd.nextDouble() * sum;
        int lo = 0;
        int hi = pairs - 1;
        while (lo < hi) { // first index with cumulative > r
          int mid = (lo + hi) >>> 1;
          if (cumulative[mid] > r) {
            hi = mid;
          } else {
            lo = mid + 1;
          }
        }
        idx = lo;
      }
      chosen.set(code[idx]);
    }
    return chosen.stream().toArray();
  }

  private static double[] predict(CountModel model, List<Graph> graphs) {
    double[] out = model.predict(graphs);
    if (out == null || out.length != graphs.size()) {
      throw new IllegalStateException("model returned " + (out == null ? "null" : out.length + " predictions")
          + " for " + graphs.size() + " graphs");
    }
    return out;
  }

  private AttackResult result(String cleanG6, long cleanCount, double cleanPrediction, boolean cleanCorrect,
      int firstAdversarial, List<AttackResult.Step> steps, List<Double> history, long evaluated, long counted) {
    return new AttackResult(config.pattern(), config.space(), config.budget(), config.beamWidth(),
        cleanG6, cleanCount, cleanPrediction, cleanCorrect, firstAdversarial, steps,
        history.stream().mapToDouble(Double::doubleValue).toArray(), evaluated, counted);
  }
}
