"""Suites of graph pairs as the Java side reads them (suite/SuiteSpecs, BrecLayout, BrecVariant):
a BREC file (.npy or graph6 lines) with its relabelings, or plain pairs of graph6 strings."""
import os
from collections import namedtuple

Q = 32  # relabelings per graph in BREC's files

# BREC's files and the category of each of their own pair indices (BrecVariant): name -> [(category, pairs)]
VARIANTS = {
    "full": [("Basic", 60), ("Regular", 100), ("Extension", 100), ("CFI", 100), ("4-Vertex Condition", 20),
             ("Distance Regular", 20)],
    "3wl": [("Basic", 60), ("Regular", 50), ("Extension", 100), ("CFI", 60)],
    "no4v-60cfi": [("Basic", 60), ("Regular", 100), ("Extension", 100), ("CFI", 60), ("Distance Regular", 20)],
}

Pair = namedtuple("Pair", "index category first second relabelings")
"""One pair: BREC's index, its category, G and H as graph6, and the shipped relabelings (or None:
the worker draws them from the seed) as (first, second, reliability_first, reliability_second)."""

Suite = namedtuple("Suite", "id pairs")
"""id: the suite spec the Java side would name it by (results carry it as suite_id)."""


def category_of(variant, index):
    start = 0
    for name, count in VARIANTS[variant]:
        if start <= index < start + count:
            return name
        start += count
    raise ValueError("pair index %d is outside the range 0..%d of BREC variant %s" % (index, start - 1, variant))


def read_graphs(path):
    """graph6 strings of a BREC file: NumPy's .npy (recognised by its magic bytes), else one per line."""
    with open(path, "rb") as f:
        magic = f.read(6)
    if magic == b"\x93NUMPY":
        try:
            import numpy
        except ImportError:
            raise ValueError("%s is a NumPy file: reading it needs numpy (apt-get install -y python3-numpy)" % path) from None
        try:
            array = numpy.load(path, allow_pickle=True)
        except ModuleNotFoundError as e:
            if "numpy._core" not in str(e):
                raise
            array = _numpy2_pickle(numpy, path)  # written by NumPy 2, read by NumPy 1 (Debian 12)
        return [x.decode() if isinstance(x, bytes) else str(x) for x in array]
    with open(path, encoding="ascii") as f:
        return [line.strip() for line in f if line.strip()]


def _numpy2_pickle(numpy, path):
    """An object array NumPy 2 pickled (numpy._core...) read with NumPy 1 (numpy.core...)."""
    import pickle
    from numpy.lib import format as npy

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            return super().find_class(module.replace("numpy._core", "numpy.core"), name)

    with open(path, "rb") as f:
        version = npy.read_magic(f)
        (npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0)(f)
        return Unpickler(f, encoding="latin1").load()


def brec(path, indices=None, q=Q, variant=None):
    """A file in BREC's layout: with P pairs, entries [p*2q, (p+1)*2q) are pair p's relabelings of G
    (even) and H (odd), entries [(P+p)*2q, (P+p+1)*2q) its reliability block. indices: BREC's pair
    number of each of the file's pairs (excerpts); variant: full, 3wl or no4v-60cfi (default: the
    variant with the file's pair count, else full)."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError("%s: suite file not found" % path)
    graphs = read_graphs(path)
    name = os.path.basename(path)
    if not graphs or len(graphs) % (4 * q):
        raise ValueError("%s: %d entries is not a positive multiple of %d (each pair has a major and a reliability"
                         " block of 2q = %d graphs)" % (name, len(graphs), 4 * q, 2 * q))
    count = len(graphs) // (4 * q)
    given_variant = variant is not None
    if variant is None:
        sizes = {sum(n for _, n in parts): v for v, parts in VARIANTS.items()}
        variant = sizes.get(count, "full") if indices is None else "full"
    variant = variant.strip().lower().replace("_", "-")
    if variant not in VARIANTS:
        raise ValueError("unknown BREC variant '%s'; valid: %s" % (variant, ", ".join(VARIANTS)))
    numbers = list(indices) if indices is not None else list(range(count))
    if len(numbers) != count:
        raise ValueError("%s: %d pair indices given for %d pairs in the file" % (name, len(numbers), count))
    if len(set(numbers)) != len(numbers):
        raise ValueError("%s: a pair index is given twice in %s" % (name, numbers))
    pairs = []
    for p, number in enumerate(numbers):
        major = graphs[p * 2 * q:(p + 1) * 2 * q]
        reliability = graphs[(count + p) * 2 * q:(count + p + 1) * 2 * q]
        relabelings = (major[0::2], major[1::2], reliability[0::2], reliability[1::2])
        pairs.append(Pair(number, category_of(variant, number), major[0], major[1], relabelings))
    # the Java suite lists pairs category by category, in the variant's order
    order = [c for c, _ in VARIANTS[variant]]
    pairs.sort(key=lambda x: (order.index(x.category), numbers.index(x.index)))
    options = ["variant=" + variant] if given_variant else []
    if q != Q:
        options.append("q=%d" % q)
    if indices is not None:
        options.append("indices=" + ",".join(str(i) for i in numbers))
    return Suite("brec:" + path + ("#" + ",".join(options) if options else ""), pairs)


def plain_pairs(pairs, name="pairs"):
    """Pairs of graph6 strings (str or bytes, e.g. networkx.to_graph6_bytes(g, header=False)), in one
    category `name`; the worker draws each pair's relabelings from the task's seed."""
    out = []
    for i, pair in enumerate(pairs):
        try:
            first, second = pair
        except (TypeError, ValueError):
            raise ValueError("pairs[%d] is not a pair of graph6 strings: %r" % (i, pair)) from None
        g6 = [x.decode().strip() if isinstance(x, bytes) else str(x).strip() for x in (first, second)]
        out.append(Pair(i, name, g6[0], g6[1], None))
    if not out:
        raise ValueError("no pairs given")
    return Suite("pairs:" + name, out)


def load(suite, indices=None, q=Q, variant=None):
    """A Suite from a BREC file path or from a list of (G, H) graph6 pairs."""
    if isinstance(suite, Suite):
        return suite
    if isinstance(suite, (str, os.PathLike)):
        return brec(suite, indices, q, variant)
    return plain_pairs(suite)
