package io.expresso.iso;

/**
 * The result of canonizing a coloured graph.
 *
 * @param position {@code position[v]} is the canonical index of vertex {@code v}
 * @param certificate the canonical form; equal for isomorphic coloured graphs
 * @param generators automorphisms found during the search ({@code gamma[v]} is the image of v);
 *     they generate a subgroup of the automorphism group (often, not always, all of it)
 * @param leaves leaves of the search tree visited, a measure of search effort
 */
public record CanonicalLabeling(int[] position, Certificate certificate, java.util.List<int[]> generators, long leaves) {}
