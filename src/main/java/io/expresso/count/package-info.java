/**
 * Exact induced counts of the eight 3- and 4-vertex patterns ({@link io.expresso.count.Pattern}),
 * per graph, per node and per edge orbit ({@link io.expresso.count.EdgeOrbitCounts}, GSN's
 * identifiers), and exact count updates after one edge flip: delta counting of the copies
 * through both endpoints ({@link io.expresso.count.DeltaFlipCounter}) and the ego-net recount of
 * Campi et al., Prop. 5.2 ({@link io.expresso.count.EgoNetFlipCounter}), behind one interface.
 * Also the seeded random-graph generators and the counting dataset built on them.
 */
package io.expresso.count;
