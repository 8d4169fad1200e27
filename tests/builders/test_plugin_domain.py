"""A domain in its own package: the map-colouring plug-in of `tests/support/fixtures/plugin/`.

The fixture is copied into a temporary ``site-packages`` folder with its hand-written
``mapcolour-0.1.dist-info`` (METADATA and entry_points.txt: ``[infoseek.domains]`` and
``[inspect_ai]``), as pip would leave it, next to ``brokenmap-0.1.dist-info``, a second
plug-in whose declaration does not import. Subprocesses with that folder on PYTHONPATH
then run what a user runs: `infoseek build`, a records file read in a fresh process,
`inspect eval <plugin>/<task>` with the reference models. (The folder's name matters:
Inspect names a task after its package only when the package looks installed, which for
a PYTHONPATH folder means a "site-packages" path.)

In-process tests cover the registry's handling of broken entry points, the plug-in's
engine against the brute-force referee, and the errors a plug-in author meets first
(a target value the engine rules out, brackets in messages, a records file not named
``.jsonl``).
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log
from rich.console import Console

from infoseek import domains
from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.datasets import domain_records
from infoseek.builders.published import PublishedDataError
from infoseek.builders.published.sources import source_records
from infoseek.engines.bruteforce import BruteForceEngine, referee_mss_family
from infoseek.inspect_tasks.task_errors import DataFileError
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.jsonl import write_jsonl
from infoseek.records import RecordError, check_record, engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.stored_forms import turns_from_store
from tests.support import FIXTURES

FIXTURE = FIXTURES / "plugin"
BROKEN = ("entry point 'brokenmap = brokenmap_missing.domain:DOMAIN' (group "
          "infoseek.domains) of distribution brokenmap 0.1 cannot be loaded: "
          "ModuleNotFoundError: No module named 'brokenmap_missing'")


# ------------------------------------------------------- the installed plug-in


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A work folder holding ``site-packages/`` with both plug-ins installed."""
    work = tmp_path_factory.mktemp("plugin")
    shutil.copytree(FIXTURE, work / "site-packages",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return work


def run(site: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """`python <args>` in the work folder, with the plug-ins on PYTHONPATH, a cache of its
    own and wide lines (Inspect's console wraps at the terminal width)."""
    env = {**os.environ, "PYTHONPATH": str(site / "site-packages"), "COLUMNS": "400",
           "INFOSEEK_CACHE_DIR": str(site / "cache")}
    return subprocess.run([sys.executable, *args], cwd=site, env=env, capture_output=True,
                          text=True, timeout=timeout)


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def built(site: Path) -> list[dict]:
    """`infoseek build mapcolour-mt`: the plug-in's builder from the command line."""
    done = run(site, "-m", "infoseek.cli", "build", "mapcolour-mt", "--out", "maps.jsonl",
               "--per-k", "3", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("built 6 problems in ")
    assert BROKEN in done.stderr  # the broken plug-in is named, and did not stop the build
    return [json.loads(line) for line in (site / "maps.jsonl").read_text().splitlines()]


def test_infoseek_build_makes_the_plugin_records(built) -> None:
    assert [(r["domain"], r["k"]) for r in built] == [("mapcolour", 1)] * 3 + [
        ("mapcolour", 2)] * 3
    assert {r["engine"]["kind"] for r in built} == {"map-colouring"}
    assert all(len(s) == r["k"] for r in built for s in r["mss_family"])
    assert built[0]["id"] == "mapcolour-mt-k1-s0-000"


def test_a_record_read_first_finds_the_plugin_engine(site, built) -> None:
    """Nothing has used the domain when the file is read: the engine registry imports the
    plug-in's declaration (which registers the kind) before it calls the kind unknown."""
    script = ("from infoseek import engines\n"
              "from infoseek.jsonl import read_jsonl\n"
              "print('map-colouring' in engines.engine_kinds())\n"
              "print(len(list(read_jsonl('maps.jsonl'))))\n"
              "print('map-colouring' in engines.engine_kinds())\n")
    done = run(site, "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "6", "True"]


def test_a_broken_plugin_is_named_and_the_other_builders_work(site, tmp_path) -> None:
    done = run(site, "-m", "infoseek.cli", "build", "brokenmap-mt", "--out", "x.jsonl")
    assert done.returncode == 2
    assert "unknown builder 'brokenmap-mt'" in done.stderr and "mapcolour-mt" in done.stderr
    assert BROKEN in one_line(done.stderr)
    out = tmp_path / "logic.jsonl"
    done = run(site, "-m", "infoseek.cli", "build", "logic-mt", "--out", str(out),
               "--per-k", "1", "--k", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    assert BROKEN in done.stderr
    assert len(out.read_text().splitlines()) == 1


def test_the_plugin_tasks_are_found_through_its_own_entry_point(site) -> None:
    """The registry finds the plug-in's tasks where Inspect does (its `inspect_ai` entry
    point), and the sweeps take them by their signatures."""
    script = ("from infoseek.inspect_tasks._registry import REGISTERED_TASKS\n"
              "from infoseek.inspect_tasks.report.sweeps import RECIPES\n"
              "print(sorted(n for n in REGISTERED_TASKS if not n.startswith('infoseek/')))\n"
              "print('mapcolour/mapcolour_mt' in RECIPES['oracles'].tasks())\n")
    done = run(site, "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "['mapcolour/mapcolour_mt', 'mapcolour/mapcolour_mt_k_prediction']", "True"]


def test_inspect_eval_runs_the_plugin_tasks_by_name(site, built) -> None:
    optimal = run(site, "-m", "inspect_ai", "eval", "mapcolour/mapcolour_mt",
                  "mapcolour/mapcolour_mt_k_prediction", "--model", "infoseek/optimal",
                  "-T", "source=maps.jsonl", "--log-dir", "optimal", "--display", "none")
    assert optimal.returncode == 0, optimal.stdout + optimal.stderr
    floor = run(site, "-m", "inspect_ai", "eval", "mapcolour/mapcolour_mt", "--model",
                "infoseek/random", "-T", "oracle=random", "-T", "max_turns=2", "-T",
                "per_k=3", "--log-dir", "random", "--display", "none")
    assert floor.returncode == 0, floor.stdout + floor.stderr
    logs = {log.eval.task_registry_name: log for log in
            (read_eval_log(str(p)) for p in sorted((site / "optimal").glob("*.eval")))}
    assert set(logs) == {"mapcolour/mapcolour_mt", "mapcolour/mapcolour_mt_k_prediction"}
    instances = sum(len(r["target_values"]) for r in built)

    seek = logs["mapcolour/mapcolour_mt"]
    assert seek.status == "success" and len(seek.samples) == instances
    metrics = log_metrics(seek)
    assert metrics["accuracy"] == metrics["final_sufficiency"] == 1.0
    assert metrics["invalid_total"] == 0.0 and metrics["over_questioning"] == 0.0
    replies = [q["reply"] for s in seek.samples for t in turns_from_store(s.store["infoseek:turns"])
               for q in t["queries"]]
    assert replies and all(r.endswith((" is red.", " is green.", " is blue.")) for r in replies)

    k_prediction = logs["mapcolour/mapcolour_mt_k_prediction"]
    assert len(k_prediction.samples) == len(built)
    assert log_metrics(k_prediction)["accuracy"] == 1.0

    [random_log] = [read_eval_log(str(p)) for p in (site / "random").glob("*.eval")]
    assert random_log.status == "success" and len(random_log.samples) == instances
    floor_metrics = log_metrics(random_log)
    assert 0.0 <= floor_metrics["final_sufficiency"] < 1.0
    assert 0.0 <= floor_metrics["accuracy"] <= 1.0


def test_inspect_prints_the_brackets_of_a_plugin_record_error(site, built, tmp_path) -> None:
    bad = dict(built[0], engine={**built[0]["engine"], "borders": [["Ash"]]})
    write_jsonl([bad], site / "bad.jsonl")
    done = run(site, "-m", "inspect_ai", "eval", "mapcolour/mapcolour_mt", "--model",
               "infoseek/optimal", "-T", "source=bad.jsonl", "--log-dir", "bad",
               "--display", "plain")  # "none" silences the error message too
    assert done.returncode != 0
    printed = one_line(done.stdout + done.stderr)
    assert ("bad.jsonl:1: field 'engine' needs 'borders', a list of [region, region] pairs"
            in printed), printed


def test_the_plugin_tasks_refuse_an_unknown_parameter(site, tmp_path) -> None:
    for name in ("mapcolour/mapcolour_mt", "mapcolour/mapcolour_mt_k_prediction"):
        done = run(site, "-m", "inspect_ai", "eval", name, "--model", "infoseek/optimal",
                   "-T", "no_such_param=1", "--log-dir", str(tmp_path / "unknown"),
                   "--display", "plain")
        assert done.returncode != 0
        printed = one_line(done.stdout + done.stderr)
        assert f"-T no_such_param is not a parameter of {name}; {name} takes " in printed, \
            printed
    assert not list(tmp_path.rglob("*.eval"))


# ------------------------------------------------ broken entry points, in-process


@pytest.fixture
def registry(monkeypatch):
    """The domain registry's tables, restored after the test."""
    domains.domain_names()  # the installed entry points are read before the test's own
    for table in ("_DOMAINS", "_RESOLVED", "_PLUGINS", "_FAILED"):
        monkeypatch.setattr(domains, table, dict(getattr(domains, table)))
    monkeypatch.setattr(domains, "_REFUSED", list(domains._REFUSED))
    monkeypatch.setattr(domains, "_WARNED", set(domains._WARNED))
    return domains


def entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name, value, domains.ENTRY_POINT_GROUP)


def test_an_entry_point_is_registered_by_path_and_checked_on_use(registry, caplog) -> None:
    registry.load_plugins([entry("wrongname", "infoseek.builders.logic.domain:DOMAIN"),
                           entry("notadomain", "infoseek.domains:ENTRY_POINT_GROUP"),
                           entry("missing", "no_such_plugin_xyz.domain:DOMAIN")])
    assert {"wrongname", "notadomain", "missing"} <= set(registry.domain_names())
    with pytest.raises(registry.PluginError,
                       match=r"entry point 'wrongname = infoseek.builders.logic.domain:DOMAIN'"
                             r" \(group infoseek.domains\) of an unknown distribution names "
                             r"Domain 'logic', not a Domain named 'wrongname'"):
        registry.get_domain("wrongname")
    with pytest.raises(registry.PluginError, match="names str 'infoseek.domains', not a Domain"):
        registry.get_domain("notadomain")
    with pytest.raises(registry.PluginError, match="ModuleNotFoundError: No module named "
                                                   "'no_such_plugin_xyz'"):
        registry.get_domain("missing")
    # the listings leave them out, once each with a warning; the built-in domains work
    names = [d.name for d in registry.all_domains()]
    assert "logic" in names and not {"wrongname", "notadomain", "missing"} & set(names)
    warned = [r.getMessage() for r in caplog.records if "no_such_plugin_xyz" in r.getMessage()]
    assert len(warned) == 1 and "entry point 'missing" in warned[0]
    registry.all_domains()
    assert len([r for r in caplog.records if "no_such_plugin_xyz" in r.getMessage()]) == 1
    with pytest.raises(registry.UnknownDomain, match="unknown builder 'missing-mt'; choose one "
                       "of .*logic-mt.*plug-ins left out.*no_such_plugin_xyz"):
        registry.get_builder("missing-mt")


def test_a_record_of_a_broken_plugin_says_why_its_engine_is_unknown(registry) -> None:
    registry.load_plugins([entry("missing", "no_such_plugin_xyz.domain:DOMAIN")])
    record = {"id": "m1", "domain": "missing", "engine": {"kind": "missing-kind"},
              "variables": ["a", "y"], "observed": {}, "target": "y", "queryable": ["a"],
              "k": 1, "mss_family": [["a"]]}
    with pytest.raises(RecordError, match=r"m1: unknown engine kind 'missing-kind'; "
                       r"registered: .*\(entry point 'missing = .*No module named"):
        engine_from_record(record)
    with pytest.raises(RecordError, match=r"field 'engine' must be an object with a registered"
                       r" kind \(.*\); entry point 'missing = "):
        check_record(record, "m.jsonl:1")


def test_an_entry_point_that_cannot_be_registered_is_left_out(registry, caplog) -> None:
    logic = registry.get_domain("logic")
    registry.load_plugins([entry("logic", "someone.else:DOMAIN"),
                           entry("nopath", "just_a_module")])
    assert registry.get_domain("logic") is logic
    assert "nopath" not in registry.domain_names()
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "entry point 'logic = someone.else:DOMAIN'" in messages
    assert "domain 'logic' is already registered" in messages
    assert "entry point 'nopath = just_a_module'" in messages
    assert "must be a 'module:attribute' path" in messages
    # the same entry point again, or one naming what is registered, is no conflict
    before = len(caplog.records)
    registry.load_plugins([entry("logic", "infoseek.builders.logic.domain:DOMAIN")])
    assert len(caplog.records) == before


# ------------------------------------------- the plug-in's engine vs the referee


def test_the_plugin_engine_agrees_with_the_brute_force_referee(monkeypatch) -> None:
    domains.domain_names()  # read the installed entry points before the fixture is on sys.path
    monkeypatch.syspath_prepend(str(FIXTURE))
    from mapcolour.engine import MapEngine

    rng = random.Random(3)
    colours = ["red", "green", "blue"]
    for _ in range(40):
        regions = [f"r{i}" for i in range(rng.randint(3, 6))]
        borders = [[a, b] for i, a in enumerate(regions) for b in regions[i + 1:]
                   if rng.random() < 0.5]
        observed = {r: rng.choice(colours) for r in rng.sample(regions[1:], 1)}
        target = regions[0]
        engine = MapEngine(regions, colours, borders, observed, target)
        referee = BruteForceEngine(
            regions, {r: colours for r in regions},
            lambda w, borders=borders: all(w[a] != w[b] for a, b in borders),
            observed, target)
        free = [r for r in regions if r not in observed and r != target]
        for _ in range(5):
            given = {r: rng.choice(colours) for r in rng.sample(free, rng.randint(0, len(free)))}
            assert engine.target_values(given) == referee.target_values(given)
            for var in regions:
                for value in ("red", "blue"):
                    assert (engine.variable_values(var, given, value)
                            == referee.variable_values(var, given, value))
        if engine.target_values():
            result = minimal_sufficient_sets(engine, free, 3)
            assert (result.k, sorted(map(tuple, map(sorted, result.family)))) == \
                referee_mss_family(referee, free, 3)


# --------------------------------------------------- errors a plug-in author meets


def test_check_record_names_a_target_value_the_engine_rules_out() -> None:
    [record] = domain_records("clinguide", ks=[1], per_k=1, seed=0)[:1]
    check_record(record, "clin.jsonl:1")
    leaves = engine_from_record(record).domain(record["target"])
    other = next(leaf for leaf in leaves if leaf not in record["target_values"])
    wrong = {**record, "target_values": [*record["target_values"], other]}
    with pytest.raises(RecordError) as caught:
        check_record(wrong, "clin.jsonl:1")
    message = str(caught.value)
    assert message.startswith(f"clin.jsonl:1: field 'target_values' of record "
                              f"'{record['id']}' lists '{other}', which the engine rules out")
    for value in record["target_values"]:
        assert repr(value) in message  # what is possible instead


def printed_by_inspect(error: Exception) -> str:
    """What Inspect's error hook shows for a PrerequisiteError: its message as markup."""
    console = Console(file=io.StringIO(), width=400)
    console.print(f"\n{error.message}\n")
    return console.file.getvalue()


def test_brackets_survive_in_the_messages_inspect_prints() -> None:
    message = "-T pairs must be a list of [region, region] pairs; got [bold]"
    error = TaskParameterError(message)
    assert str(error) == message and error.args == (message,)
    assert printed_by_inspect(error).strip() == message
    data = DataFileError("x.jsonl:1: field 'engine' needs 'borders', a list of [a, b] pairs")
    assert "a list of [a, b] pairs" in printed_by_inspect(data)


def test_a_records_file_not_named_jsonl_gets_a_suggestion(tmp_path) -> None:
    records = domain_records("clinguide", ks=[1], per_k=2, seed=0)
    named = tmp_path / "clin.txt"
    write_jsonl(records, named)
    with pytest.raises(PublishedDataError, match=r"clin.txt: the clinguide domain has no "
                       r"source format of released data.*name the file \*.jsonl or pass "
                       r"source_format=records"):
        source_records(str(named), domain="clinguide")
    assert source_records(str(named), domain="clinguide", source_format="records") == records
    logic = domain_records("logic-mt", ks=[1], per_k=2, seed=0)
    write_jsonl(logic, tmp_path / "logic.json")
    with pytest.raises(PublishedDataError, match=r"logic.json: holds problem records \(JSON "
                       r"Lines with 'domain' and 'engine'\).*source_format=records"):
        source_records(str(tmp_path / "logic.json"), domain="logic")
