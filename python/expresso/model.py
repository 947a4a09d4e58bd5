"""Your model as the bytes of a TorchScript archive, checked against the signature Expresso feeds it
(docs/gnn-evaluation.md, "Your own model"):

    input="sparse": forward(x: float[N,F], edge_index: long[2,E], batch: long[N]) -> float[B,d]
    input="dense":  forward(adj: float[B,n,n], mask: bool[B,n]) -> float[B,d]

An nn.Module is scripted with torch.jit.script (PyTorch needed); a .pt path or bytes are taken as
they are (no PyTorch needed)."""
import io
import os
import re
import warnings

from .errors import ModelNotScriptable, ModelRefused

ARITY = {"sparse": 3, "dense": 2}
_HINT = ("Expresso runs TorchScript, not Python: rewrite that construct in TorchScript's subset"
         " (https://pytorch.org/docs/stable/jit_language_reference.html), or pass a module you scripted"
         " and saved yourself (torch.jit.save)")


def _torch():
    try:
        import torch
        return torch
    except ImportError:
        raise ModelRefused("scripting an nn.Module needs PyTorch (apt-get install -y python3-torch, or pip install"
                           " torch); a module saved with torch.jit.save can be passed as its .pt path without it") from None


def explain(name, error):
    """One paragraph on why torch.jit.script refused a module: its headline, the construct it pointed
    at and where, what to do; then torch's own message."""
    text = str(error).strip("\n")
    lines = text.splitlines()
    headline = next((line.strip() for line in lines if line.strip()), type(error).__name__).rstrip(":").strip()
    where = next((line.strip() for line in lines if re.match(r'\s*File ".*", line \d+', line)), None)
    construct = None
    for i, line in enumerate(lines):
        if "<--- HERE" in line and i > 0:
            construct = lines[i - 1].strip()  # the source line torch points at (its ~~~ are not exact)
            break
    first = "%s cannot be scripted by torch.jit.script: %s" % (name, headline)
    if construct:
        first += " (the construct: `%s`%s)" % (construct, ", " + where if where else "")
    return "%s.\n%s.\n\ntorch.jit.script said:\n%s" % (first, _HINT, text)


def script(model):
    """A ScriptModule for an nn.Module (or the ScriptModule itself); ModelNotScriptable naming the construct."""
    torch = _torch()
    if isinstance(model, torch.jit.ScriptModule):
        return model
    if not isinstance(model, torch.nn.Module):
        raise ModelRefused("model must be an nn.Module, a TorchScript .pt path or its bytes, got %s"
                           % type(model).__name__)
    try:
        return torch.jit.script(model)
    except Exception as e:  # torch.jit's frontend errors and RuntimeErrors alike
        raise ModelNotScriptable(explain(type(model).__name__, e)) from e


def module_bytes(model, input="sparse", columns=1):
    """The TorchScript archive of `model` (nn.Module, ScriptModule, .pt path or bytes); a module
    scripted here is checked first (columns: node-feature columns of the sparse input)."""
    if isinstance(model, (bytes, bytearray)):
        return bytes(model)
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if not os.path.isfile(path):
            raise ModelRefused("%s: no such file (expected a module saved with torch.jit.save)" % path)
        with open(path, "rb") as f:
            return f.read()
    scripted = script(model)
    check_signature(scripted, input, columns)
    if not hasattr(scripted, "reset_parameters"):
        left = left_as_saved(scripted)
        if left:
            warnings.warn("%s exports no reset_parameters (@torch.jit.export): Expresso draws its standard torch.nn"
                          " layers' weights per seed with PyTorch's default init, but these start every seed from"
                          " the saved values: %s" % (type(model).__name__, ", ".join(left)), stacklevel=3)
    buffer = io.BytesIO()
    _torch().jit.save(scripted, buffer)
    return buffer.getvalue()


# the torch.nn layers whose parameters Expresso re-draws per seed when a module has no reset_parameters
# (model/TorchScriptLayers.java reads the same classes from the archive's code)
STANDARD_LAYER = re.compile(r"__torch__\.torch\.nn\.modules\.\w+(?:\.___torch_mangle_\d+)?\.(Linear|Conv[123]d|"
                            r"ConvTranspose[123]d|BatchNorm[123]d|LayerNorm|GroupNorm|InstanceNorm[123]d|Embedding|"
                            r"RNN|GRU|LSTM|RNNCell|GRUCell|LSTMCell)$")


def left_as_saved(scripted):
    """The parameters of a scripted module outside standard torch.nn layers: without reset_parameters
    they start every seed from their saved values."""
    covered = set()
    for name, module in scripted.named_modules():
        try:
            qualified = module._c._type().qualified_name()
        except AttributeError:
            continue
        if STANDARD_LAYER.match(qualified):
            covered.update((name + "." if name else "") + p for p, _ in module.named_parameters(recurse=False))
    return [name for name, _ in scripted.named_parameters() if name not in covered]


def check_signature(scripted, input="sparse", columns=1):
    """Refuses a module whose forward takes the wrong number of tensors, or does not return one float
    row per graph on two small graphs: what the worker would refuse later, said before publishing."""
    torch = _torch()
    schema = getattr(getattr(scripted, "forward", None), "schema", None)
    if schema is not None:
        args = [a.name for a in schema.arguments if a.name != "self"]
        if len(args) != ARITY[input]:
            raise ModelRefused("forward takes (%s), but input=%s feeds %s; %s" % (
                ", ".join(args), input, "(x, edge_index, batch)" if input == "sparse" else "(adj, mask)",
                "say input=\"dense\"" if len(args) == 2 else "say input=\"sparse\"" if len(args) == 3
                else "write forward with the signature in docs/python.md"))
    if input == "sparse":  # a triangle and a 2-vertex path
        inputs = (torch.ones(5, columns), torch.tensor([[0, 1, 1, 2, 2, 0, 3, 4], [1, 0, 2, 1, 0, 2, 4, 3]]),
                  torch.tensor([0, 0, 0, 1, 1]))
    else:
        adj = torch.zeros(2, 3, 3)
        adj[0] = torch.ones(3, 3) - torch.eye(3)
        adj[1, 0, 1] = adj[1, 1, 0] = 1
        inputs = (adj, torch.tensor([[True, True, True], [True, True, False]]))
    copy = torch.jit.load(_saved(torch, scripted))
    copy.eval()
    try:
        with torch.no_grad():
            out = copy(*inputs)
    except Exception as e:
        # TorchScript's interpreter puts its traceback first and the error itself last
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        fed = ("x: float[5,%d], edge_index: long[2,8], batch: long[5]" % columns if input == "sparse"
               else "adj: float[2,3,3], mask: bool[2,3]")
        raise ModelRefused("forward fails on two small graphs fed as input=%s (%s): %s" % (
            input, fed, lines[-1] if lines else type(e).__name__)) from e
    if not isinstance(out, torch.Tensor) or out.dim() != 2 or out.shape[0] != 2 or not out.is_floating_point():
        raise ModelRefused("forward must return float[B,d], one row per graph: on two graphs it returned %s" % (
            "%s%s" % (str(out.dtype).replace("torch.", ""), list(out.shape)) if isinstance(out, torch.Tensor)
            else type(out).__name__))


def _saved(torch, scripted):
    buffer = io.BytesIO()
    torch.jit.save(scripted, buffer)
    buffer.seek(0)
    return buffer
