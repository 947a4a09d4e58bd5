/**
 * The graph core every other package builds on: an immutable simple undirected {@link
 * io.expresso.graph.Graph} (CSR plus bitset rows), builders, relabeling, shortest paths, ego-nets,
 * components, and the graph6/sparse6 and TU-dataset codecs. Malformed input raises {@link
 * io.expresso.graph.GraphFormatException} naming where and what.
 */
package io.expresso.graph;
