package io.expresso.attack;

import io.expresso.count.Pattern;

/**
 * Settings of one beam-search attack.
 *
 * @param pattern the counted pattern
 * @param space which flips a step may take
 * @param budget Δ, the most flips (≥ 1)
 * @param beamWidth k, graphs kept per step (1 = greedy; the paper uses 10)
 * @param candidatesPerMember 0 to expand every pair of every beam member; otherwise, when a member
 *     has more unflipped pairs than this, that many pairs drawn with probability ∝ d(i)² + d(j)²
 *     (with replacement, duplicates dropped)
 * @param rule the adversarial-example rule
 * @param seed seed of the pair sampling
 */
public record AttackConfig(Pattern pattern, PerturbationSpace space, int budget, int beamWidth,
    int candidatesPerMember, AdversarialRule rule, long seed) {

  public AttackConfig {
    if (pattern == null || space == null || rule == null) {
      throw new IllegalArgumentException("pattern, space and rule are required");
    }
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1 flip, got " + budget);
    }
    if (beamWidth < 1) {
      throw new IllegalArgumentException("beam width must be at least 1, got " + beamWidth);
    }
    if (candidatesPerMember < 0) {
      throw new IllegalArgumentException("candidates per beam member must be >= 0, got " + candidatesPerMember);
    }
  }

  /** Beam width 10, all pairs expanded, δ = 1, seed 0. */
  public static AttackConfig paper(Pattern pattern, PerturbationSpace space, int budget) {
    return new AttackConfig(pattern, space, budget, 10, 0, AdversarialRule.paper(), 0);
  }

  /** The same attack with another beam width. */
  public AttackConfig withBeamWidth(int width) {
    return new AttackConfig(pattern, space, budget, width, candidatesPerMember, rule, seed);
  }
}
