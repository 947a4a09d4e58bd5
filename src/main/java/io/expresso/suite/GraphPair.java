package io.expresso.suite;

import io.expresso.graph.Graph;

/**
 * One pair of non-isomorphic graphs to tell apart.
 *
 * @param index the pair's index in its suite (BREC's official index for BREC files)
 * @param category the name of the category the pair belongs to
 * @param first G
 * @param second H
 * @param relabelings relabelings given by the suite (the BREC layout), or {@code null} when the
 *     evaluator must draw its own
 */
public record GraphPair(int index, String category, Graph first, Graph second, Relabelings relabelings) {}
