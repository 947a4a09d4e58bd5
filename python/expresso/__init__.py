"""Expresso from Python: evaluate a PyTorch model on BREC through Expresso's Kafka workers.

    import expresso
    client = expresso.Client("127.0.0.1:9092")
    run = client.evaluate(my_gnn, suite="brec_v3.npy", seeds=range(10))   # run.pairs, run.categories(), run.best_seed

See docs/python.md in the repository."""
from .client import Client, Pending, torchscript_method
from .errors import (BrokerUnavailable, ExpressoError, ModelNotScriptable, ModelRefused, ResultsTimeout, TopicMissing,
                     UserModelsRefused)
from .results import Results
from .suite import brec, plain_pairs

__all__ = ["Client", "Pending", "Results", "brec", "plain_pairs", "torchscript_method", "ExpressoError",
           "BrokerUnavailable", "TopicMissing", "ModelNotScriptable", "ModelRefused", "UserModelsRefused",
           "ResultsTimeout"]
