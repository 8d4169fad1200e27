"""The Inspect entry point registers names only (issue 32, item 6).

Inspect imports every installed package's entry point when any `inspect` command starts,
so `infoseek.inspect_tasks._registry` must not import the task modules, scorers or their
dependencies; its stand-ins import them on first use. Each check runs in a fresh Python
process: the test process has imported the suite already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LIGHT_MODULES = {"infoseek", "infoseek.inspect_tasks", "infoseek.inspect_tasks._registry",
                 "infoseek.inspect_tasks.inspect_private"}
"""All the modules of infoseek that importing the entry point may import."""

HEAVY = ("sympy", "networkx", "pysat", "scipy", "matplotlib", "pandas", "pyarrow",
         "datasets", "pyperplan", "rapidfuzz", "infoseek.solvers", "infoseek.scorers",
         "infoseek.builders", "infoseek.engines", "infoseek.oracles",
         "infoseek.inspect_tasks.logic_mt", "infoseek.inspect_tasks.assembly")


def python(script: str, tmp_path: Path) -> str:
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


IMPORTED = """
import json, sys
import inspect_ai
before = set(sys.modules)
import infoseek.inspect_tasks._registry as entry
imported = sorted(set(sys.modules) - before)
from inspect_ai.model import get_model
model = str(get_model("infoseek/optimal"))
print(json.dumps({"imported": imported, "model": model,
                  "after_model": sorted(set(sys.modules) - before),
                  "stand_ins": len(entry.STAND_INS), "deferred": len(entry.DEFERRED)}))
"""


def test_importing_the_entry_point_registers_names_only(tmp_path) -> None:
    found = json.loads(python(IMPORTED, tmp_path))
    ours = {name for name in found["imported"] if name.split(".")[0] == "infoseek"}
    others = {name for name in found["imported"] if name.split(".")[0] not in
              {"infoseek", "inspect_ai", *sys.stdlib_module_names}}
    assert ours == LIGHT_MODULES
    assert others == set()
    assert not [name for name in found["imported"] if name.startswith(HEAVY)]
    # every name is a stand-in in a fresh process
    assert found["stand_ins"] == found["deferred"] > 40
    # the reference provider resolves without importing a task module or scorer
    assert found["model"] == "infoseek/optimal"
    assert "infoseek.solvers.reference.models" in found["after_model"]
    assert not [name for name in found["after_model"]
                if name.startswith(("infoseek.inspect_tasks.", "infoseek.scorers"))
                and name not in LIGHT_MODULES]


RESOLVED = """
import importlib, json, pkgutil
from inspect_ai import eval
from inspect_ai.util import registry_info
import infoseek.inspect_tasks._registry as entry
from infoseek.inspect_tasks.inspect_private import is_deferred

stand_ins = dict(entry.STAND_INS)
[log] = eval("infoseek/logic_mt", model="infoseek/optimal", limit=1,
             task_args={"per_k": 1, "k": 1}, display="none", log_dir="logs")
resolved = {}
for (kind, name), stand_in in stand_ins.items():
    real = stand_in.resolve()
    info = registry_info(real)
    resolved[f"{kind}:{name}"] = [info.type, info.name, is_deferred(real)]

defined = set()
for package in ("infoseek.inspect_tasks", "infoseek.scorers", "infoseek.solvers"):
    root = importlib.import_module(package)
    for found in pkgutil.walk_packages(root.__path__, package + "."):
        module = importlib.import_module(found.name)
        for value in vars(module).values():
            try:
                info = registry_info(value)
            except (ValueError, TypeError):
                continue
            if (info.name.startswith("infoseek/") and info.type != "modelapi"
                    and not is_deferred(value)):
                defined.add(f"{info.type}:{info.name}")
defined |= {f"scorer:{name}" for name in entry.RECORDED_SCORER_NAMES}
print(json.dumps({"status": log.status, "task": log.eval.task_registry_name,
                  "args": log.eval.task_args, "accuracy":
                  log.results.scores[0].metrics["accuracy"].value,
                  "resolved": resolved, "defined": sorted(defined)}))
"""


def test_stand_ins_run_the_real_objects_and_cover_every_registration(tmp_path) -> None:
    """A task run by name through its stand-in is the real task (its log records every
    argument with its default), every stand-in resolves to the real object of the same
    kind and name, and `DEFERRED` lists exactly what the modules register."""
    found = json.loads(python(RESOLVED, tmp_path))
    assert found["status"] == "success" and found["task"] == "infoseek/logic_mt"
    assert found["args"]["per_k"] == 1 and found["args"]["seed"] == 0
    assert found["accuracy"] == 1.0
    for key, (kind, name, deferred) in found["resolved"].items():
        assert key == f"{kind}:{name}" and not deferred
    assert sorted(found["resolved"]) == found["defined"]


UNKNOWN = """
from inspect_ai import eval
import infoseek.inspect_tasks._registry
try:
    eval("infoseek/logic_mt", model="infoseek/optimal", limit=1, task_args={"per_kk": 1},
         display="none", log_dir="logs")
except Exception as error:
    print(type(error).__name__, error)
"""


def test_a_stand_in_task_refuses_an_unknown_parameter_as_the_real_one_does(tmp_path) -> None:
    out = python(UNKNOWN, tmp_path)
    assert out.startswith("UnknownParameterError -T per_kk is not a parameter of "
                          "infoseek/logic_mt (did you mean per_k?)"), out
