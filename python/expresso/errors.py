"""The errors the package raises: each says what went wrong and what to do about it."""


class ExpressoError(Exception):
    """Anything the package refuses or cannot do."""


class BrokerUnavailable(ExpressoError):
    """No Kafka broker answered at the bootstrap servers within the timeout."""


class TopicMissing(ExpressoError):
    """The cluster lacks a topic Expresso needs (workers and `expresso up` create them)."""


class ModelNotScriptable(ExpressoError):
    """torch.jit.script refused the module; the message names the construct and where it is."""


class ModelRefused(ExpressoError):
    """The scripted module does not fit Expresso's signature (inputs, or a float[B,d] output)."""


class UserModelsRefused(ExpressoError):
    """The worker does not run user TorchScript modules: it was started without --allow-user-models.

    `results` holds what had arrived (the error results among them)."""

    def __init__(self, message, results=None):
        super().__init__(message)
        self.results = results


class ResultsTimeout(ExpressoError):
    """Not every task had a result when the wait ended; `results` holds those that had."""

    def __init__(self, message, results=None):
        super().__init__(message)
        self.results = results
