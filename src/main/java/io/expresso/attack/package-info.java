/**
 * Adversarial attacks on subgraph-counting models (Campi et al.): perturbation spaces of edge
 * flips, the adversarial-example rule (Def. 4.1), greedy and beam search over flips with exact
 * counts kept by incremental updates, and the aggregates reported over many attacks (success rate
 * versus budget, its normalised area, transfer to other models). Models are reached only through
 * {@link io.expresso.attack.CountModel}.
 */
package io.expresso.attack;
