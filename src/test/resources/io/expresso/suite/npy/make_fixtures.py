#!/usr/bin/env python3
"""Writes the NPY fixtures of NpyStringArrayTest with real NumPy (run from this folder).

Every way NumPy stores a list of graph6 strings, each file a few graphs:
  fixed-width byte strings '|S' (np.save of a list of bytes, as BREC's dataset script does),
  fixed-width unicode '<U' and '>U', NPY format versions 1.0, 2.0 and 3.0,
  object arrays of bytes, str, numpy.bytes_ and numpy.str_ with pickle protocols 2 to 5,
  both with NumPy 2 module names (numpy._core) and NumPy 1 ones (numpy.core),
plus arrays the reader must refuse, and one pair in BREC layout (128 entries).
Tests never run Python: the outputs are committed. Needs NumPy >= 2 (written with 2.4).
"""
import io
import pickle
import random

import numpy as np
import numpy.lib.format as npy

# Graph6 strings of different lengths, so fixed-width arrays carry NUL padding.
GRAPHS = ["C~", "DQc", "E?Bw", "Cr", "D?{"]


def save(name, array, version=None):
    """As np.save writes it (object arrays: pickle protocol 4)."""
    with open(name, "wb") as f:
        npy.write_array(f, array, version=version)


def save_pickled(name, array, protocol, numpy1_names=False):
    """np.save's header, then the pickle with the given protocol (np.save fixes protocol 4)."""
    out = io.BytesIO()
    npy.write_array_header_1_0(out, npy.header_data_from_array_1_0(array))
    if numpy1_names:
        Numpy1Pickler(out, protocol=protocol).dump(array)
    else:
        pickle.dump(array, out, protocol=protocol)
    with open(name, "wb") as f:
        f.write(out.getvalue())


class Numpy1Pickler(pickle._Pickler):
    """Pickles with NumPy 1.x module names (numpy.core.*), as files from NumPy 1 read.

    NumPy 2 still serves numpy.core.* as an alias of numpy._core.*, so the pure-Python pickler
    finds the same objects under the old names; only the names written change."""

    def save_global(self, obj, name=None):
        original = pickle.whichmodule

        def numpy1(o, n):
            module = original(o, n)
            return "numpy.core" + module[len("numpy._core"):] if module.startswith("numpy._core") else module

        pickle.whichmodule = numpy1
        try:
            super().save_global(obj, name)
        finally:
            pickle.whichmodule = original


def objects(items):
    a = np.empty(len(items), dtype=object)
    a[:] = items
    return a


def mixed():
    """Each graph in another Python type: bytes, str, numpy.bytes_, numpy.str_."""
    kinds = [lambda s: s.encode(), str, lambda s: np.bytes_(s.encode()), np.str_]
    return objects([kinds[i % 4](s) for i, s in enumerate(GRAPHS)])


def graph6(n, edges):
    """The graph6 string of a graph with n <= 62 vertices."""
    bits = [0] * (n * (n - 1) // 2)
    for u, v in edges:
        u, v = min(u, v), max(u, v)
        bits[v * (v - 1) // 2 + u] = 1
    bits += [0] * (-len(bits) % 6)
    chunks = [bits[i:i + 6] for i in range(0, len(bits), 6)]
    return chr(n + 63) + "".join(chr(63 + int("".join(map(str, c)), 2)) for c in chunks)


def relabel(n, edges, rng):
    p = list(range(n))
    rng.shuffle(p)
    return [(p[u], p[v]) for u, v in edges]


def brec_one_pair():
    """BREC layout with one pair, the hexagon versus two triangles (1-WL cannot tell them apart):
    q = 32 relabelings of each, interleaved, then 2q relabelings of the hexagon (reliability)."""
    rng = random.Random(14)
    hexagon = [(i, (i + 1) % 6) for i in range(6)]
    triangles = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]
    major = []
    for k in range(32):
        g = hexagon if k == 0 else relabel(6, hexagon, rng)
        h = triangles if k == 0 else relabel(6, triangles, rng)
        major += [graph6(6, g), graph6(6, h)]
    reliability = [graph6(6, relabel(6, hexagon, rng)) for _ in range(64)]
    return major + reliability


def main():
    as_bytes = [s.encode() for s in GRAPHS]
    save("bytes.npy", np.array(as_bytes))                       # |S4
    save("bytes_v2.npy", np.array(as_bytes), version=(2, 0))
    save("unicode.npy", np.array(GRAPHS))                       # <U4
    save("unicode_big_endian.npy", np.array(GRAPHS, dtype=">U4"))
    save("unicode_v3.npy", np.array(GRAPHS), version=(3, 0))

    save("object_bytes.npy", objects(as_bytes))
    save("object_str.npy", objects(list(GRAPHS)))
    save("object_numpy_bytes.npy", objects([np.bytes_(b) for b in as_bytes]))
    save("object_numpy_str.npy", objects([np.str_(s) for s in GRAPHS]))
    for protocol in (2, 3, 4, 5):
        save_pickled(f"object_mixed_p{protocol}.npy", mixed(), protocol)
        save_pickled(f"object_mixed_numpy1_p{protocol}.npy", mixed(), protocol, numpy1_names=True)

    # Refused: other dtypes, more than one dimension, Fortran order, no entries, non-strings.
    save("float64.npy", np.arange(4.0))
    save("pairs_2d.npy", np.array(as_bytes[:4]).reshape(2, 2))
    save("fortran_2d.npy", np.asfortranarray(np.array(as_bytes[:4]).reshape(2, 2)))
    save("empty.npy", np.array([], dtype="S1"))
    save("object_int.npy", objects([b"C~", np.int64(7)]))
    save("object_none.npy", objects([b"C~", None]))

    brec = brec_one_pair()
    save("brec_one_pair.npy", np.array([s.encode() for s in brec]))   # as BREC's np.save writes it
    save("brec_one_pair_unicode.npy", np.array(brec))
    save("brec_one_pair_object.npy", objects([s.encode() for s in brec]))
    with open("brec_one_pair.g6", "w") as f:
        f.write("".join(s + "\n" for s in brec))


if __name__ == "__main__":
    main()
