/**
 * The Weisfeiler–Leman family of exact, non-GNN baselines: colour refinement to a stable
 * partition with one shared palette for the graphs compared, deciding "distinguished" by the
 * final colour histograms. Methods: 1-WL, 2-FWL ({@code 3-wl}), 3-FWL ({@code 4-wl}), SPD-WL,
 * substructure counts (S₃, S₄), k-hop ego-net types (N₁, N₂) and node marking (M₁); look them up
 * with {@link io.expresso.wl.WlMethods#byName}.
 */
package io.expresso.wl;
