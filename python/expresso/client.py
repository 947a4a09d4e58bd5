"""The Client: stores a model in expresso.models, publishes pair tasks, follows expresso.results.

    client = expresso.Client("127.0.0.1:9092")
    run = client.evaluate(model, suite="brec_v3.npy", seeds=range(10))
    run.categories(), run.best_seed, run.pairs

Task ids, the model's key and method text are those `expresso publish brec` writes
(runtime/TaskMessages, model/TorchScriptSpec), so Python and Java runs of one experiment mix."""
import hashlib
import logging
import os
import socket
import time
import uuid
from collections import OrderedDict

from . import config, model as models, suite as suites
from .errors import (BrokerUnavailable, ExpressoError, ResultsTimeout, TopicMissing,
                     UserModelsRefused)
from .progress import Progress
from .results import Results
from .summary import short_name

TASKS = "expresso.tasks"  # every kind of task; the header below names the message type
HEADER_TASK_TYPE = "expresso.task-type"
MODELS = "expresso.models"
RESULTS = "expresso.results"
EXACT = ("1-wl", "3-wl", "4-wl", "spd-wl", "s3", "s4", "n1", "n2", "m1")  # the non-GNN baselines
# The file `expresso experiment brec` reads its default --models from (src/main/resources/io/expresso/suite/
# brec-leaderboard-models.txt, copied into the package when it is built)
LEADERBOARD_MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "brec-leaderboard-models.txt")


def _read_leaderboard_models(path=LEADERBOARD_MODELS):
    """The model names of the file, in its order (lines after '#' are comments)."""
    with open(path, encoding="utf-8") as f:
        return tuple(line.strip() for line in f if line.strip() and not line.startswith("#"))


# every built-in model BREC's Table 2 has a row for: leaderboard()'s default, as `expresso experiment brec`'s
DEFAULT_MODELS = _read_leaderboard_models()

_LOG = logging.getLogger("expresso.kafka")
_LOG.addHandler(logging.NullHandler())  # librdkafka's own chatter stays out of the user's terminal

try:
    from importlib.metadata import version as _version
    PUBLISHER = "expresso-python %s on %s" % (_version("expresso"), socket.gethostname())
except Exception:  # running from the source tree
    PUBLISHER = "expresso-python on %s" % socket.gethostname()


def _kafka():
    try:
        import confluent_kafka
        return confluent_kafka
    except ImportError:
        raise ExpressoError("confluent_kafka is not installed: apt-get install -y python3-confluent-kafka"
                            " (or pip install confluent-kafka)") from None


def _pb():
    try:
        from .v1 import results_pb2, tasks_pb2
        return tasks_pb2, results_pb2
    except ImportError as e:
        raise ExpressoError("the generated message classes are missing (%s): install the package with"
                            " pip install ./python, which runs protoc on protos/" % e) from None


def torchscript_method(digest, input="sparse", features="ones", init="auto", width=32, depth=4):
    """TorchScriptSpec.toText: the method a task names a stored module by, every option spelled out."""
    if input not in ("sparse", "dense"):
        raise ValueError("input must be 'sparse' or 'dense', got %r" % (input,))
    if init not in ("auto", "reset", "saved"):
        raise ValueError("init must be 'auto', 'reset' or 'saved', got %r" % (init,))
    names = features.split("+") if isinstance(features, str) else list(features)
    names = [f.strip().lower() for f in names]
    if not names or any(f not in ("ones", "degree", "spd") and not f.startswith("count-") for f in names):
        raise ValueError("features must be ones, degree, spd or count-P, joined by '+', got %r" % (features,))
    if input == "dense" and names != ["ones"]:
        raise ValueError("features apply to input='sparse' only (the dense signature takes the adjacency and the mask)")
    return "torchscript:sha256:%s,input=%s,features=%s,init=%s,width=%d,depth=%d" % (
        digest, input, "+".join(names), init, width, depth)


def _text(error):
    """A KafkaError's own words (its repr is noisy)."""
    return error.str() if hasattr(error, "str") else str(error)


class _Reader:
    """Reads expresso.results from the beginning (committed records only) and keeps one result per
    task id of one experiment: the first success, else the latest error (runtime/kafka/ResultMerge)."""

    def __init__(self, client, experiment):
        ck = _kafka()
        self._ck = ck
        self._results_pb2 = _pb()[1]
        self.experiment = experiment
        self.kept = OrderedDict()
        self.duplicates = self.superseded = self.undecodable = 0
        self.consumer = ck.Consumer(dict(client._settings, **{
            "group.id": "expresso-python-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8]),
            "enable.auto.commit": False, "isolation.level": "read_committed", "enable.partition.eof": True,
            "auto.offset.reset": "earliest", "logger": _LOG, "error_cb": client._on_error}))
        partitions = list(client._metadata().topics[RESULTS].partitions)
        self.consumer.assign([ck.TopicPartition(RESULTS, p, ck.OFFSET_BEGINNING) for p in partitions])
        self.not_at_end = set(partitions)

    @property
    def caught_up(self):
        """Every partition was read to its end at least once."""
        return not self.not_at_end

    def read(self, seconds):
        """Reads for up to `seconds`; returns the results kept or replaced meanwhile."""
        changed = []
        for m in self.consumer.consume(num_messages=1000, timeout=seconds):
            if m.error():
                if m.error().code() == self._ck.KafkaError._PARTITION_EOF:
                    self.not_at_end.discard(m.partition())
                continue
            r = self._results_pb2.Result()
            try:
                r.ParseFromString(m.value())
            except Exception:
                self.undecodable += 1
                continue
            if r.experiment_id != self.experiment:
                continue
            kept = self.kept.get(r.task_id)
            if kept is None or kept.HasField("error"):
                self.superseded += kept is not None
                self.kept[r.task_id] = r  # a replaced task keeps its place, as the Java reader's map
                changed.append(r)
            else:
                self.duplicates += 1
        return changed

    def results(self):
        return Results(self.experiment, self.kept.values(), self.duplicates + self.superseded, self.superseded)

    def close(self):
        self.consumer.close()


class Pending:
    """Published tasks whose results are still coming: wait() follows them and returns the Results."""

    def __init__(self, client, reader, task_ids, published, label):
        self.client, self.reader, self.task_ids, self.label = client, reader, list(task_ids), label
        self.published = len(published)  # tasks sent now; the others had succeeded before
        # a task published again after an error is done only when a newer result replaces that error
        self._stale = {t: reader.kept[t] for t in published if t in reader.kept and reader.kept[t].HasField("error")}
        self.experiment = reader.experiment

    def wait(self, timeout=None, progress=True):
        """Follows expresso.results until every task has a result (timeout: seconds, None: no limit).
        Raises UserModelsRefused at the first worker that refuses the module, ResultsTimeout (with
        the results so far) when time runs out."""
        reader = self.reader
        wanted = set(self.task_ids)
        bar = Progress(len(wanted), self.label, enabled=progress)
        end = None if timeout is None else time.monotonic() + timeout
        try:
            while True:
                for r in reader.read(0.5):
                    if r.HasField("error") and "--allow-user-models" in r.error.message:
                        raise UserModelsRefused("the worker refused the model: %s (%s)" % (
                            r.error.message, r.provenance.worker_id or "unknown worker"), reader.results())
                done = [t for t in wanted if t in reader.kept and reader.kept[t] is not self._stale.get(t)]
                bar.update(len(done), sum(1 for t in done if reader.kept[t].HasField("error")))
                if len(done) == len(wanted) and reader.caught_up:
                    return reader.results()
                if end is not None and time.monotonic() > end:
                    raise ResultsTimeout("only %d of %d results of experiment %s arrived within %.0f s (are workers"
                                         " running on %s?)" % (len(done), len(wanted), self.experiment, timeout,
                                                               self.client.bootstrap), reader.results())
        finally:
            bar.close()
            reader.close()


class Client:
    """A connection to Expresso's Kafka cluster.

    bootstrap: host:port[,...]; kafka_config: the Java client properties of a secured cluster (a
    dict, or the path of the same .properties file `--kafka-config` takes; default the file
    $EXPRESSO_KAFKA_CONFIG names). Raises BrokerUnavailable when no broker answers within timeout
    seconds, naming the bootstrap servers."""

    def __init__(self, bootstrap=None, kafka_config=None, timeout=30):
        self.bootstrap, self._settings = config.resolve(bootstrap, kafka_config)
        self._settings.setdefault("socket.connection.setup.timeout.ms", str(int(timeout * 1000)))
        self.timeout = timeout
        self._last_error = None
        _kafka()
        from confluent_kafka.admin import AdminClient
        self._admin = AdminClient(dict(self._settings, logger=_LOG, error_cb=self._on_error))
        self._producer = None
        self._metadata()  # fail now, not at the first publish

    def _on_error(self, error):
        self._last_error = error

    def _metadata(self):
        ck = _kafka()
        end = time.monotonic() + self.timeout
        while True:
            try:
                return self._admin.list_topics(timeout=min(2.0, max(0.1, end - time.monotonic())))
            except ck.KafkaException as e:
                self._admin.poll(0)  # serves error_cb: an authentication failure is reported there
                err = self._last_error
                if err is not None and err.code() == ck.KafkaError._AUTHENTICATION:
                    raise BrokerUnavailable("Kafka at %s refused to authenticate: %s" % (
                        config.describe(self._settings), err.str())) from None
                if time.monotonic() >= end:
                    raise BrokerUnavailable(
                        "no answer from Kafka at %s within %.0f s: is the broker up and reachable%s? (%s)" % (
                            config.describe(self._settings), self.timeout,
                            "" if "security.protocol" in self._settings else ", and does it expect TLS or SASL",
                            _text(err if err is not None else e.args[0] if e.args else e))) from None

    def _require(self, *topics):
        present = self._metadata().topics
        missing = [t for t in topics if t not in present]
        if missing:
            raise TopicMissing("the Kafka cluster at %s lacks the topics %s: start a worker or `expresso up` there"
                               " (they create them), or publish once with `expresso publish ... --create-topics`"
                               % (self.bootstrap, ", ".join(missing)))

    def _send(self, topic, messages):
        """Produces (key, message) pairs and waits until the cluster has them all; a task (on TASKS)
        names its message type in the header the workers read."""
        ck = _kafka()
        if self._producer is None:
            self._producer = ck.Producer(dict(self._settings, **{
                "acks": "all", "enable.idempotence": True, "message.max.bytes": 32 << 20, "linger.ms": 5,
                "logger": _LOG, "error_cb": self._on_error}))
        failed = []

        def delivered(err, msg):
            if err is not None:
                failed.append("%s: %s" % (msg.key().decode(), err.str()))
        count = 0
        for key, message in messages:
            while True:
                try:
                    extra = {"headers": [(HEADER_TASK_TYPE, message.DESCRIPTOR.full_name.encode())]} if topic == TASKS else {}
                    self._producer.produce(topic, key=key, value=message.SerializeToString(), on_delivery=delivered,
                                           **extra)
                    break
                except BufferError:
                    self._producer.poll(0.5)  # the local queue is full: let it drain
            count += 1
            self._producer.poll(0)
        left = self._producer.flush(max(self.timeout, 60))
        if left or failed:
            raise ExpressoError("could not write %d of %d records to %s at %s: %s" % (
                left + len(failed), count, topic, self.bootstrap, "; ".join(failed[:3]) or "no acknowledgement in time"))
        return count

    def _caught_up_reader(self, experiment):
        reader = _Reader(self, experiment)
        end = time.monotonic() + max(self.timeout, 60)
        while not reader.caught_up:
            reader.read(0.2)
            if time.monotonic() > end:
                reader.close()
                raise ExpressoError("could not read %s at %s to its end within %.0f s" % (
                    RESULTS, self.bootstrap, max(self.timeout, 60)))
        return reader

    def store_model(self, model, input="sparse", features="ones", init="auto", width=32, depth=4):
        """Scripts `model` if needed, stores it in expresso.models under sha256:<hex> of its bytes;
        returns the method text tasks name it by."""
        columns = len(features.split("+")) if isinstance(features, str) else len(list(features))
        module = models.module_bytes(model, input, columns)
        digest = hashlib.sha256(module).hexdigest()
        method = torchscript_method(digest, input, features, init, width, depth)
        results_pb2 = _pb()[1]
        self._require(MODELS)
        self._send(MODELS, [("sha256:" + digest, results_pb2.Checkpoint(
            key="sha256:" + digest, model=method, parameters=module, format="torchscript", created_by=PUBLISHER,
            created_at_ms=int(time.time() * 1000)))])
        return method

    def evaluate(self, model, suite="brec_v3.npy", seeds=range(10), input="sparse", features="ones", epochs=0,
                 experiment=None, indices=None, pairs=None, q=32, init="auto", width=32, depth=4, force=False,
                 wait=True, timeout=None, progress=True):
        """Evaluates `model` on every pair of `suite` under every seed, as BREC does.

        model: an nn.Module (scripted here), a TorchScript .pt path or its bytes, or the name of a
        built-in method or model spec ("3-wl", "ppgn:layers=5"); suite: a BREC file (.npy or
        graph6 lines; `indices` gives an excerpt's pair numbers) or a list of (G, H) graph6 pairs;
        pairs: (lo, hi) to keep only BREC pairs numbered lo..hi; epochs: 0 for the model's default;
        experiment: the id results are grouped by (default: from the model and suite).
        Tasks that already succeeded in the experiment are not published again unless force.
        Returns Results when wait, else a Pending whose wait() returns them."""
        the_suite = suites.load(suite, indices, q)
        method = self._method(model, input, features, init, width, depth)
        if experiment is None:
            experiment = "py-%s-%s" % (method.split(",")[0].replace("torchscript:sha256:", "ts-")[:20],
                                       short_name(the_suite.id))
        return self._publish_pairs(experiment, the_suite, [method], seeds, 1, pairs, epochs, q, force, wait, timeout,
                                   progress)

    def leaderboard(self, models=DEFAULT_MODELS, suite="brec_v3.npy", seeds=range(10), pairs=None, indices=None,
                    experiment=None, epochs=0, chunk=1, q=32, force=False, wait=True, timeout=None, progress=True):
        """BREC's leaderboard as one experiment, as `expresso experiment brec`: every model on every pair
        of `suite` under every seed, published interleaved (chunks of `chunk` pairs, each taken in turn by
        every seed and model) so every model is under way from the start. Tasks that already succeeded
        in the experiment are not published again (resuming it) unless force.

        models: built-in specs or exact methods ("ppgn", "3-wl"; default DEFAULT_MODELS, every built-in model
        BREC's Table 2 has a row for, as `expresso experiment brec`)
        and your own modules (an nn.Module, a TorchScript .pt path or bytes, or (module, options) with
        options as store_model takes them: input, features, init, width, depth), all on one table;
        experiment: default py-leaderboard-<suite>. Returns Results (leaderboard() gives the table)
        when wait, else a Pending whose wait() returns them."""
        the_suite = suites.load(suite, indices, q)
        methods = []
        for m in ([models] if isinstance(models, str) else list(models)):
            model, options = m if isinstance(m, tuple) else (m, {})
            method = self._method(model, **options)
            if method in methods:
                raise ValueError("models names %s twice" % method)
            methods.append(method)
        if not methods:
            raise ValueError("no models given")
        if int(chunk) < 1:
            raise ValueError("chunk must be at least 1 pair, got %r" % (chunk,))
        if experiment is None:
            experiment = "py-leaderboard-%s" % short_name(the_suite.id)
        return self._publish_pairs(experiment, the_suite, methods, seeds, int(chunk), pairs, epochs, q, force, wait,
                                   timeout, progress)

    def _method(self, model, input="sparse", features="ones", init="auto", width=32, depth=4):
        """The method text tasks name a model by: a built-in spec or exact method as given, else the
        module stored in expresso.models."""
        if isinstance(model, str) and not model.endswith(".pt") and not os.path.isfile(model):
            return model.strip()  # a built-in method or model spec, run by any worker
        return self.store_model(model, input, features, init, width, depth)

    def _publish_pairs(self, experiment, the_suite, methods, seeds, chunk, pairs, epochs, q, force, wait, timeout,
                       progress):
        """Publishes the pair tasks of methods x pairs x seeds without a success in the experiment, in
        TaskMessages.forEachInterleavedPairTask's order: chunks of pairs, per chunk every seed, per seed
        every method on the chunk's pairs (one method, chunk 1: pair by pair, every seed of a pair)."""
        seed_list = [int(s) for s in ([seeds] if isinstance(seeds, int) else seeds)]
        if not seed_list:
            raise ValueError("no seeds given")
        tasks_pb2 = _pb()[0]
        self._require(TASKS, RESULTS)
        reader = self._caught_up_reader(experiment)
        try:
            now = int(time.time() * 1000)
            training = tasks_pb2.TrainingSettings(epochs=epochs)
            # threshold_mode left empty: each model's BREC threshold (RPC's 72.34; dropgnn's given 5)
            rpc = tasks_pb2.RpcSettings(q=q, alpha=0.05, convention="brec")
            chosen = [p for p in the_suite.pairs if pairs is None or pairs[0] <= p.index <= pairs[1]]
            if not chosen:
                raise ValueError("no pair of %s lies in pairs=%s" % (the_suite.id, pairs))
            wanted, messages = [], []
            for start in range(0, len(chosen), chunk):
                block = chosen[start:start + chunk]
                for seed in seed_list:
                    for method in methods:
                        for pair in block:
                            task_id = "%s/%s/%d/s%d" % (experiment, method, pair.index, seed)
                            wanted.append(task_id)
                            kept = reader.kept.get(task_id)
                            if not force and kept is not None and not kept.HasField("error"):
                                continue  # already succeeded: publishing again would change nothing
                            relabelings = None if pair.relabelings is None else tasks_pb2.Relabelings(
                                first=pair.relabelings[0], second=pair.relabelings[1],
                                reliability_first=pair.relabelings[2], reliability_second=pair.relabelings[3])
                            messages.append((task_id, tasks_pb2.PairTask(
                                header=tasks_pb2.TaskHeader(task_id=task_id, experiment_id=experiment,
                                                            published_at_ms=now, publisher=PUBLISHER),
                                suite_id=the_suite.id, pair_index=pair.index, category=pair.category,
                                graph_first=pair.first, graph_second=pair.second, relabelings=relabelings,
                                method=method, training=training, rpc=rpc, seed=seed)))
            self._send(TASKS, messages)
        except BaseException:
            reader.close()
            raise
        pending = Pending(self, reader, wanted, [k for k, _ in messages], "%s: %d pair tasks" % (experiment, len(wanted)))
        return pending.wait(timeout, progress) if wait else pending

    def publish_baseline(self, method, suite="brec_v3.npy", seeds=(0,), **kwargs):
        """An exact non-GNN method (1-wl, 3-wl, 4-wl, spd-wl, s3, s4, n1, n2, m1) on a suite: evaluate()."""
        if method.strip().lower() not in EXACT:
            raise ValueError("%r is not one of the exact methods %s" % (method, ", ".join(EXACT)))
        return self.evaluate(method.strip().lower(), suite, seeds, **kwargs)

    def publish_synthetic(self, experiment, count, work_ms=0, force=False, wait=True, timeout=None, progress=True):
        """`count` synthetic load tasks of `work_ms` busy-work each (ids <experiment>/synthetic/<i>);
        those that already succeeded are not published again unless force."""
        tasks_pb2 = _pb()[0]
        self._require(TASKS, RESULTS)
        reader = self._caught_up_reader(experiment)
        try:
            ns = time.time_ns()
            ids = ["%s/synthetic/%d" % (experiment, i) for i in range(count)]
            messages = [(t, tasks_pb2.SyntheticTask(
                header=tasks_pb2.TaskHeader(task_id=t, experiment_id=experiment, published_at_ms=ns // 1_000_000,
                                            publisher=PUBLISHER),
                work_ms=work_ms, published_at_nanos=ns)) for t in ids
                if force or t not in reader.kept or reader.kept[t].HasField("error")]
            self._send(TASKS, messages)
        except BaseException:
            reader.close()
            raise
        pending = Pending(self, reader, ids, [k for k, _ in messages], "%s: %d synthetic tasks" % (experiment, count))
        return pending.wait(timeout, progress) if wait else pending

    def results(self, experiment):
        """Every result of `experiment` so far (published from Python or Java), one per task."""
        self._require(RESULTS)
        reader = self._caught_up_reader(experiment)
        try:
            return reader.results()
        finally:
            reader.close()

    def close(self):
        if self._producer is not None:
            self._producer.flush(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
