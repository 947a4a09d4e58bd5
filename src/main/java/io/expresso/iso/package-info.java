/**
 * Graph isomorphism: canonical labelling of vertex-coloured graphs by individualization–refinement
 * ({@link io.expresso.iso.Canonizer}), certificates, and the isomorphism-bias audit of graph
 * datasets (orbits of isomorphic graphs, mismatched labels, clean exports, train/test leakage).
 */
package io.expresso.iso;
