"""Generates the protobuf message classes from the repository's protos/ while the package is built,
and copies in BREC's Table 2 and the leaderboard's default models from the Java resources.

The classes are never written by hand nor committed: `pip install ./python` (or `python3 setup.py
build`) runs protoc on ../protos/expresso/v1/*.proto into expresso/v1/ of the build, so Java and
Python read the same .proto files. protoc comes from Debian's protobuf-compiler (3.21, matching
Debian's python3-protobuf runtime); $PROTOC names another one. Likewise the package's
expresso/brec-table2.csv and expresso/brec-leaderboard-models.txt are the files suite/BrecPaperResults
reads, copied at build time.
"""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOS = os.path.join(HERE, "..", "protos")
# the Java resources the package reads too (suite/BrecPaperResults): one copy each
RESOURCES = [os.path.join(HERE, "..", "src", "main", "resources", "io", "expresso", "suite", name)
             for name in ("brec-table2.csv", "brec-leaderboard-models.txt")]


class BuildWithProtos(build_py):
    def run(self):
        super().run()
        protoc = os.environ.get("PROTOC") or shutil.which("protoc")
        if not protoc:
            raise SystemExit("expresso: protoc is needed to build the package (the message classes are generated"
                             " from protos/): apt-get install -y protobuf-compiler, or set $PROTOC")
        if not os.path.isdir(os.path.join(PROTOS, "expresso", "v1")):
            raise SystemExit("expresso: no protos at %s: build from the repository (pip install ./python)" % PROTOS)
        sources = sorted(os.path.join("expresso", "v1", f) for f in os.listdir(os.path.join(PROTOS, "expresso", "v1"))
                         if f.endswith(".proto"))
        out = os.path.abspath(self.build_lib)
        os.makedirs(os.path.join(out, "expresso", "v1"), exist_ok=True)
        subprocess.run([protoc, "-I", PROTOS, "--python_out=" + out] + sources, check=True)
        for resource in RESOURCES:
            if not os.path.isfile(resource):
                raise SystemExit("expresso: no %s: build from the repository (pip install ./python)" % resource)
            shutil.copyfile(resource, os.path.join(out, "expresso", os.path.basename(resource)))


setup(cmdclass={"build_py": BuildWithProtos})
