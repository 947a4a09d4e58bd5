"""The package against a real cluster, started by the JUnit test io.expresso.python.PythonPackageTest
(one run of `./mvnw verify`), which sets:

  EXPRESSO_BOOTSTRAP          a plaintext broker whose worker runs user modules (--allow-user-models)
  EXPRESSO_SECURED_BOOTSTRAP  a SASL_PLAINTEXT/PLAIN broker whose worker refuses them
  EXPRESSO_SECURED_CONFIG     the Java client properties of that broker (as --kafka-config takes them)
  EXPRESSO_EXCERPT            BREC's 4-pair excerpt (.npy): official pairs 0, 60, 110, 160
  EXPRESSO_OUT                where to write summaries for the Java side to compare with `expresso results --json`

Run by hand: python3 -m unittest discover -s python/tests -v (with those set)."""
import inspect
import json
import os
import sys
import time
import unittest

import torch
from torch import Tensor, nn

import expresso
from expresso import config

INDICES = [0, 60, 110, 160]


def env(name):
    value = os.environ.get(name)
    if not value:
        raise AssertionError("%s is not set: run these tests through PythonPackageTest (./mvnw verify)" % name)
    return value


class Gin(nn.Module):
    """A plain-PyTorch GIN (no PyTorch Geometric): sum aggregation by index_add, sum readout per layer."""

    def __init__(self, layers: int = 3, hidden: int = 16, d: int = 16):
        super().__init__()
        self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(1 if i == 0 else hidden, hidden), nn.ReLU(),
                                                 nn.Linear(hidden, hidden), nn.ReLU()) for i in range(layers)])
        self.readouts = nn.ModuleList([nn.Linear(hidden, d) for _ in range(layers)])
        self.d = d

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        graphs = int(batch.max().item()) + 1
        out = torch.zeros(graphs, self.d)
        h = x
        for mlp, readout in zip(self.mlps, self.readouts):
            h = mlp(h.index_add(0, edge_index[1], h[edge_index[0]]))
            out = out + readout(torch.zeros(graphs, h.shape[1]).index_add(0, batch, h))
        return out


class DenseSum(nn.Module):
    """The dense signature: padded adjacency and mask; sums of two rounds of neighbour sums."""

    def __init__(self, d: int = 16):
        super().__init__()
        self.lin = nn.Linear(2, d)

    def forward(self, adj: Tensor, mask: Tensor) -> Tensor:
        h = mask.unsqueeze(-1).to(adj.dtype)
        h1 = torch.bmm(adj, h)
        h2 = torch.bmm(adj, h1)
        return self.lin(torch.cat([h1, h2], dim=2).sum(1))


class KeywordArguments(Gin):
    """Not scriptable: TorchScript has no **kwargs."""

    def forward(self, x, edge_index, batch, **kwargs):
        return super().forward(x, edge_index, batch)


class NodeEmbeddings(Gin):
    """Scriptable, but one row per node: Expresso needs one per graph."""

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        return self.readouts[0](self.mlps[0](x))


class Timed(unittest.TestCase):
    def setUp(self):
        self.started = time.monotonic()

    def tearDown(self):
        print("[%.1f s] " % (time.monotonic() - self.started), end="", file=sys.stderr, flush=True)


def write(name, data):
    with open(os.path.join(env("EXPRESSO_OUT"), name), "w") as f:
        json.dump(data, f, indent=1)


class EvaluateOnTheExcerpt(Timed):
    """A plain-PyTorch GIN evaluated from Python end to end: scripted, stored, published, judged by a
    real worker, read back as data."""

    @classmethod
    def setUpClass(cls):
        cls.client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        started = time.monotonic()
        torch.manual_seed(0)
        cls.model = Gin()
        cls.outcome = cls.client.evaluate(cls.model, suite=env("EXPRESSO_EXCERPT"), indices=INDICES, seeds=range(2),
                                      epochs=2, experiment="py-gin", timeout=400)
        print("\npy-gin: 8 pair tasks in %.1f s" % (time.monotonic() - started), file=sys.stderr)

    def test_every_pair_and_seed_has_a_row_with_its_verdict_and_provenance(self):
        frame = self.outcome.pairs
        self.assertEqual(type(frame).__name__, "DataFrame")
        self.assertEqual(len(frame), 8)
        self.assertEqual(sorted(set(frame["pair"])), INDICES)
        self.assertEqual(sorted(set(frame["seed"])), [0, 1])
        self.assertTrue(frame["error"].isna().all(), self.outcome.errors)
        self.assertTrue((frame["t2"] >= 0).all() and (frame["threshold"] > 0).all())
        self.assertTrue((frame["seconds"] > 0).all())
        self.assertTrue(frame["method"].str.startswith("torchscript:sha256:").all())
        self.assertEqual(set(frame["precision"]), {"fp32"})
        self.assertTrue(frame["publisher"].str.startswith("expresso-python").all())
        self.assertTrue(frame["worker"].str.len().gt(0).all())

    def test_the_category_table_holds_the_best_seed_and_the_1wl_bound(self):
        table = self.outcome.categories()
        self.assertEqual(list(table["category"]), ["Basic", "Regular", "Regular (paper grouping)", "Extension", "total"])
        self.assertEqual(list(table["pairs"]), [1, 2, 2, 1, 4])
        # every BREC pair is 1-WL-equivalent: a GIN tells none apart reliably
        self.assertEqual(list(table["reliably_distinguished"]), [0, 0, 0, 0, 0])
        self.assertTrue(table["paper"].isna().all())  # a user's module is not in BREC's Table 2
        beside = self.outcome.categories(paper="gin")  # ... but may be set beside any row of it
        self.assertEqual(list(beside["paper_model"].unique()), ["1-WL bound"])
        self.assertIn(self.outcome.best_seed, (0, 1))
        table.to_json(os.path.join(env("EXPRESSO_OUT"), "py-gin.table.json"), orient="records")  # NaN as null
        self.assertIn("best seed", self.outcome.configuration().verdict())

    def test_results_reads_the_same_experiment_back(self):
        again = self.client.results("py-gin")
        self.assertEqual(again.summary(), self.outcome.summary())
        write("py-gin.json", again.summary())

    def test_evaluating_again_publishes_nothing_that_already_succeeded(self):
        again = self.client.evaluate(self.model, suite=env("EXPRESSO_EXCERPT"), indices=INDICES, seeds=range(2),
                                     epochs=2, experiment="py-gin", wait=False)
        self.assertEqual((len(again.task_ids), again.published), (8, 0))
        self.assertEqual(again.wait(timeout=60).summary()["categories"], self.outcome.summary()["categories"])

    def test_a_dense_module_gets_the_padded_adjacency(self):
        run = self.client.evaluate(DenseSum(), suite=env("EXPRESSO_EXCERPT"), indices=INDICES, input="dense",
                                   pairs=(0, 0), seeds=[0], epochs=1, experiment="py-dense", timeout=120,
                                   progress=False)
        self.assertEqual(run.errors, [])
        self.assertEqual([(r["pair"], r["category"]) for r in run.pair_rows()], [(0, "Basic")])
        self.assertIn(",input=dense,features=ones,", run.configuration().method)

    def test_without_pandas_the_rows_are_plain_lists(self):
        saved = sys.modules.get("pandas")
        sys.modules["pandas"] = None  # `import pandas` now raises ImportError
        try:
            rows = self.outcome.pairs
            table = self.outcome.categories()
        finally:
            if saved is None:
                del sys.modules["pandas"]
            else:
                sys.modules["pandas"] = saved
        self.assertIsInstance(rows, list)
        self.assertEqual(len(rows), 8)
        self.assertEqual({r["category"] for r in rows}, {"Basic", "Regular", "Extension"})
        self.assertEqual([r["pairs"] for r in table], [1, 2, 2, 1, 4])


class Baselines(Timed):

    def test_3wl_from_python_tells_apart_all_but_the_strongly_regular_pair(self):
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        run = client.publish_baseline("3-wl", suite=env("EXPRESSO_EXCERPT"), indices=INDICES, experiment="py-3wl",
                                      timeout=120, progress=False)
        rows = {r["pair"]: r["distinguished"] for r in run.pair_rows()}
        self.assertEqual(rows, {0: True, 60: True, 110: False, 160: True})
        table = {r["category"]: (r["reliably_distinguished"], r["paper"]) for r in run.category_rows()}
        self.assertEqual(table["Basic"], (1, 60))  # beside 3-WL's row of Table 2
        self.assertEqual(table["total"], (3, 270))
        write("py-3wl.json", run.summary())

    def test_plain_graph6_pairs_get_relabelings_drawn_by_the_worker(self):
        pair0 = expresso.brec(env("EXPRESSO_EXCERPT"), indices=INDICES).pairs[0]  # BREC's pair 0, G and H
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        run = client.publish_baseline("3-wl", suite=[(pair0.first, pair0.second), (pair0.first, pair0.first)],
                                      experiment="py-pairs", timeout=120, progress=False)
        self.assertEqual([(r["suite"], r["category"], r["pair"], r["distinguished"]) for r in
                          sorted(run.pair_rows(), key=lambda r: r["pair"])],
                         [("pairs:pairs", "pairs", 0, True), ("pairs:pairs", "pairs", 1, False)])
        write("py-pairs.json", run.summary())

    def test_a_task_published_again_after_an_error_counts_its_success(self):
        good = expresso.brec(env("EXPRESSO_EXCERPT"), indices=INDICES).pairs[0]
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        failed = client.publish_baseline("3-wl", suite=[(good.first, "not graph6")], experiment="py-retry",
                                         timeout=120, progress=False)
        self.assertEqual([e[1] for e in failed.errors], ["invalid-graph6"])
        self.assertEqual([(r["method"], r["pair"], r["seed"]) for r in failed.pair_rows()], [("3-wl", 0, 0)])
        again = client.publish_baseline("3-wl", suite=[(good.first, good.second)], experiment="py-retry",
                                        timeout=120, progress=False)
        self.assertEqual((again.errors, len(again), again.superseded_errors), ([], 1, 1))
        self.assertTrue(again.pair_rows()[0]["distinguished"])
        write("py-retry.json", again.summary())

    def test_a_failed_pair_counts_in_its_category_and_against_its_seed(self):
        good = expresso.brec(env("EXPRESSO_EXCERPT"), indices=INDICES).pairs[0]
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        run = client.publish_baseline("3-wl", suite=[(good.first, good.second), (good.first, "not graph6")],
                                      experiment="py-failed", timeout=120, progress=False)
        self.assertEqual([e[1] for e in run.errors], ["invalid-graph6"])
        self.assertEqual(sorted((r["pair"], r["category"], r["seed"], r["error"]) for r in run.pair_rows()),
                         [(0, "pairs", 0, None), (1, "pairs", 0, "invalid-graph6")])
        self.assertEqual(run.summary()["categories"], [
            {"name": "pairs", "method": "3-wl", "tasks": 2, "distinguished": 1, "reliable": 1, "errors": 1}])
        seed = run.configuration().seed_runs[0]
        self.assertEqual((seed["distinguished"], seed["reliability_failures"], seed["real_correct"]), (1, 1, 0))
        self.assertFalse(run.counts)
        # BREC's rule sees an undecided pair; the verdict says the seed fails only through the error
        self.assertEqual(run.configuration().failing_only_through_errors, [0])
        self.assertIn("seed 0 only through pairs that ended in an error", run.configuration().verdict())
        self.assertNotIn("pair tasks", str(run))
        write("py-failed.json", run.summary())

    def test_an_experiment_published_from_java_reads_back(self):
        run = expresso.Client(env("EXPRESSO_BOOTSTRAP")).results("java-3wl")
        self.assertEqual(len(run), 4)
        self.assertEqual(run.configuration().method, "3-wl")
        self.assertEqual(sum(r["distinguished"] for r in run.pair_rows()), 3)
        write("java-3wl.json", run.summary())


class LeaderboardFromPython(Timed):
    """client.leaderboard: a plain-PyTorch module beside built-in methods on one BREC table, published
    interleaved, resumed by its experiment id (expresso experiment brec from Python)."""

    def test_a_users_module_joins_the_built_ins_on_one_table(self):
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        torch.manual_seed(0)
        model = Gin()
        pending = client.leaderboard([model, "3-wl", "1-wl"], suite=env("EXPRESSO_EXCERPT"), indices=INDICES,
                                     seeds=range(2), epochs=2, experiment="py-leaderboard", wait=False)
        self.assertEqual((len(pending.task_ids), pending.published), (24, 24))
        # interleaved: every model's first task comes before any model's second
        first = [t.rsplit("/", 2)[0].split("/", 1)[1] for t in pending.task_ids[:3]]
        self.assertTrue(first[0].startswith("torchscript:sha256:"), first)
        self.assertEqual(first[1:], ["3-wl", "1-wl"])
        self.assertEqual([t.rsplit("/", 2)[1:] for t in pending.task_ids[:3]], [["0", "s0"]] * 3)
        run = pending.wait(timeout=400, progress=False)
        self.assertEqual(run.errors, [])
        rows = run.leaderboard_rows()
        self.assertEqual(len(rows), 3)
        top = rows[0]  # 3-WL tells apart all but the strongly regular pair: the most
        self.assertEqual((top["model"], top["paper_model"], top["total"], top["total (paper)"], top["counts"]),
                         ("3-wl", "3-WL", 3, 270, True))
        self.assertEqual((top["Basic"], top["Basic (paper)"], top["Regular (paper grouping) (paper)"]), (1, 60, 50))
        others = {r["model"].split(",")[0][:19]: r for r in rows[1:]}
        self.assertEqual(set(others), {"torchscript:sha256:", "1-wl"})
        self.assertEqual(others["1-wl"]["paper_model"], "1-WL bound")
        self.assertIsNone(others["torchscript:sha256:"]["paper_model"])  # a user's module: no paper row
        self.assertEqual([r["total"] for r in rows[1:]], [0, 0])  # every BREC pair is 1-WL-equivalent
        self.assertEqual(list(run.leaderboard["model"]), [r["model"] for r in rows])
        self.assertIn("BREC leaderboard", str(run))
        write("py-leaderboard.json", run.summary())
        again = client.leaderboard([model, "3-wl", "1-wl"], suite=env("EXPRESSO_EXCERPT"), indices=INDICES,
                                   seeds=range(2), epochs=2, experiment="py-leaderboard", wait=False)
        self.assertEqual((len(again.task_ids), again.published), (24, 0))
        again.wait(timeout=60, progress=False)


class LeaderboardDefault(Timed):
    """leaderboard()'s default models: the file `expresso experiment brec` reads its own from."""

    def test_the_default_is_every_built_in_model_with_a_row_in_brec_table_2(self):
        from expresso import client, summary
        self.assertIs(inspect.signature(client.Client.leaderboard).parameters["models"].default, client.DEFAULT_MODELS)
        self.assertGreaterEqual(len(client.DEFAULT_MODELS), 14)
        self.assertEqual(len(set(client.DEFAULT_MODELS)), len(client.DEFAULT_MODELS))
        for name in client.DEFAULT_MODELS:
            row = summary.paper_row(name)
            self.assertIsNotNone(row, name)
            self.assertNotEqual(row[0], "1-WL bound", name)
        self.assertNotIn("gin", client.DEFAULT_MODELS)


class ClearErrors(Timed):

    def test_no_broker_names_the_bootstrap_and_the_timeout(self):
        started = time.monotonic()
        with self.assertRaises(expresso.BrokerUnavailable) as e:
            expresso.Client("127.0.0.1:1", timeout=3)
        self.assertIn("no answer from Kafka at 127.0.0.1:1", str(e.exception))
        self.assertIn("within 3 s", str(e.exception))
        self.assertLess(time.monotonic() - started, 15)

    def test_a_module_that_cannot_be_scripted_names_the_construct(self):
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        with self.assertRaises(expresso.ModelNotScriptable) as e:
            client.evaluate(KeywordArguments(), suite=env("EXPRESSO_EXCERPT"), indices=INDICES, experiment="py-bad")
        message = str(e.exception)
        self.assertIn("KeywordArguments cannot be scripted by torch.jit.script", message)
        self.assertIn("variable number of arguments", message)
        self.assertIn("the construct: `def forward(self, x, edge_index, batch, **kwargs):`", message)
        self.assertIn("test_expresso.py", message)

    def test_a_module_with_one_row_per_node_is_refused_before_publishing(self):
        client = expresso.Client(env("EXPRESSO_BOOTSTRAP"))
        with self.assertRaises(expresso.ModelRefused) as e:
            client.evaluate(NodeEmbeddings(), suite=env("EXPRESSO_EXCERPT"), indices=INDICES, experiment="py-bad")
        self.assertIn("forward must return float[B,d], one row per graph", str(e.exception))
        with self.assertRaises(expresso.ModelRefused) as e:
            client.evaluate(Gin(), suite=env("EXPRESSO_EXCERPT"), indices=INDICES, input="dense", experiment="py-bad")
        self.assertIn("forward takes (x, edge_index, batch), but input=dense feeds (adj, mask)", str(e.exception))
        with self.assertRaises(expresso.ModelRefused) as e:  # two feature columns for a module that reads one
            client.evaluate(Gin(), suite=env("EXPRESSO_EXCERPT"), indices=INDICES, features="ones+degree",
                            experiment="py-bad")
        self.assertIn("forward fails on two small graphs fed as input=sparse (x: float[5,2]", str(e.exception))
        self.assertIn("mat1 and mat2 shapes cannot be multiplied", str(e.exception))
        self.assertEqual(len(client.results("py-bad")), 0)


class SecuredCluster(Timed):
    """The secured broker, reached with the Java client properties; its worker refuses user modules."""

    def test_a_worker_without_allow_user_models_refuses_with_its_reason(self):
        client = expresso.Client(env("EXPRESSO_SECURED_BOOTSTRAP"), kafka_config=env("EXPRESSO_SECURED_CONFIG"))
        with self.assertRaises(expresso.UserModelsRefused) as e:
            client.evaluate(Gin(), suite=env("EXPRESSO_EXCERPT"), indices=INDICES, pairs=(0, 0), seeds=[0],
                            epochs=1, experiment="py-refused", timeout=120, progress=False)
        self.assertIn("start the worker with --allow-user-models", str(e.exception))
        self.assertEqual(e.exception.results.errors[0][1], "invalid-task")

    def test_synthetic_tasks_run_through_sasl(self):
        client = expresso.Client(kafka_config=dict(config.read_properties(env("EXPRESSO_SECURED_CONFIG")),
                                                   **{"bootstrap.servers": env("EXPRESSO_SECURED_BOOTSTRAP")}))
        run = client.publish_synthetic("py-synthetic", 5, work_ms=1, timeout=120, progress=False)
        self.assertEqual(len(run), 5)
        self.assertEqual(run.errors, [])
        self.assertEqual(run.summary()["categories"], [
            {"name": "synthetic", "method": "synthetic", "tasks": 5, "distinguished": 0, "reliable": 0, "errors": 0}])
        self.assertIn("synthetic tasks: 5 (0 errors)", str(run))

    def test_a_wrong_password_is_refused_at_once(self):
        props = config.read_properties(env("EXPRESSO_SECURED_CONFIG"))
        props["sasl.jaas.config"] = props["sasl.jaas.config"].replace('password="', 'password="wrong')
        started = time.monotonic()
        with self.assertRaises(expresso.BrokerUnavailable) as e:
            expresso.Client(env("EXPRESSO_SECURED_BOOTSTRAP"), kafka_config=props, timeout=20)
        self.assertIn("refused to authenticate", str(e.exception))
        self.assertIn("sasl.mechanism PLAIN", str(e.exception))
        self.assertLess(time.monotonic() - started, 15)


class JavaClientProperties(Timed):

    def test_a_properties_file_with_continued_lines_becomes_librdkafka_settings(self):
        path = os.path.join(env("EXPRESSO_OUT"), "scram.properties")
        with open(path, "w") as f:
            f.write("# comment\nbootstrap.servers=k1:9093,k2:9093\nsecurity.protocol=SASL_SSL\n"
                    "sasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram."
                    "ScramLoginModule required \\\n    username=\"expresso\" password=\"change-me\";\n"
                    "ssl.truststore.type=PEM\nssl.truststore.location=/etc/expresso/ca.pem\n")
        bootstrap, settings = config.resolve(None, path)
        self.assertEqual(bootstrap, "k1:9093,k2:9093")
        self.assertEqual(settings, {"bootstrap.servers": "k1:9093,k2:9093", "security.protocol": "SASL_SSL",
                                    "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": "expresso",
                                    "sasl.password": "change-me", "ssl.ca.location": "/etc/expresso/ca.pem"})

    def test_a_jks_truststore_is_refused_with_what_to_use(self):
        with self.assertRaises(ValueError) as e:
            config.resolve("k:9093", {"security.protocol": "SSL", "ssl.truststore.location": "/x.jks"})
        self.assertIn("librdkafka reads PEM", str(e.exception))


if __name__ == "__main__":
    unittest.main()
