"""The built wheel, installed (not editable) into a fresh virtual environment, is what a
user gets: one top-level package, `infoseek`, with its data files, whose tasks run by name
from any folder, and beside which a user's own `scorers.py` and `solvers.py` stay theirs.

The wheel is built offline from a copy of the source tree (`pip wheel --no-build-isolation`
with the setuptools of the dev extras), so neither a stale `build/` folder nor a
concurrent build can leak into it. The virtual environment sees this environment's
site-packages after its own (Inspect and the other dependencies come from there, nothing
is downloaded), so the tests check that `infoseek` is imported from the venv's copy, not
from an editable install of the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import textwrap
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests.packaging.test_packaging import ROOT, package_folder, setuptools_table

PACKAGE_DATA = {
    "infoseek/builders/clinguide/trees": ".json",
    "infoseek/builders/math/templates": ".toml",
    "infoseek/builders/genereg/networks": ".txt",
}
"""Folders of the wheel that must hold the data files of their repository folder."""


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    python: Path
    seconds: dict[str, float]


def source_files() -> list[Path]:
    """The files a clean clone of the working tree holds (tracked, plus new files git does
    not ignore), relative to the root."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    return [Path(name) for name in listed if name and (ROOT / name).is_file()]


def run(command: list[str | Path], cwd: Path, timeout: int = 300
        ) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                            text=True, timeout=timeout, env=isolated_env())
    assert result.returncode == 0, (
        f"{' '.join(map(str, command))} failed ({result.returncode}):\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def isolated_env() -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH pointing into the checkout."""
    env = {key: value for key, value in os.environ.items()
           if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def see_this_environment(python: Path) -> None:
    """Let the venv import what this environment has installed (Inspect, pip, ...), after
    its own packages: a `.pth` file adds this environment's site directories at the end
    of the venv's `sys.path` (`--system-site-packages` would give the base interpreter's
    instead, when this environment is itself a venv)."""
    venv_site = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    cwd=python.parent).stdout.strip()
    lines = [f"import site; site.addsitedir({folder!r})" for folder in site.getsitepackages()]
    (Path(venv_site) / "zz_outer_environment.pth").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    source = base / "source"
    for name in source_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    dist = base / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--check-build-dependencies", "--no-index", "-q", "-w", dist, "."], cwd=source)
    wheels = sorted(dist.glob("infoseek-*.whl"))
    assert len(wheels) == 1, wheels
    seconds["build"] = time.perf_counter() - start

    start = time.perf_counter()
    venv = base / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=base)
    python = venv / "bin" / "python"
    see_this_environment(python)
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheels[0]],
        cwd=base)
    seconds["install"] = time.perf_counter() - start
    return Installed(wheels[0], venv, python, seconds)


def test_the_wheel_holds_one_top_level_package_and_its_data(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = wheel.namelist()
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        record = wheel.read(f"{dist_info}/RECORD").decode().splitlines()
        top_level = wheel.read(f"{dist_info}/top_level.txt").decode().split()
        metadata = wheel.read(f"{dist_info}/METADATA").decode()
    assert {name.split("/")[0] for name in names} == {"infoseek", dist_info}
    assert {line.split(",")[0].split("/")[0] for line in record} == {"infoseek", dist_info}
    assert top_level == ["infoseek"]
    assert "License-Expression: MIT" in metadata.splitlines()
    assert f"{dist_info}/licenses/LICENSE" in names

    for folder, suffix in PACKAGE_DATA.items():
        package = folder.replace("/", ".")
        in_repo = sorted(p.name for p in package_folder(package).iterdir()
                         if p.suffix == suffix)
        in_wheel = sorted(n.rsplit("/", 1)[1] for n in names
                          if n.startswith(folder + "/") and n.endswith(suffix))
        assert in_repo and in_wheel == in_repo, folder

    # every module of every listed package, and nothing else under a layer folder
    expected = set()
    for package in setuptools_table()["packages"]:
        for path in package_folder(package).glob("*.py"):
            expected.add("/".join([*package.split("."), path.name]))
    assert {n for n in names if n.endswith(".py")} == expected


def test_pip_show_lists_one_top_level_package(installed: Installed) -> None:
    shown = run([installed.python, "-m", "pip", "show", "-f", "infoseek"],
                cwd=installed.venv).stdout
    location = next(line.split(":", 1)[1].strip() for line in shown.splitlines()
                    if line.startswith("Location:"))
    assert Path(location).resolve().is_relative_to(installed.venv.resolve())
    files = shown.split("Files:", 1)[1].split()
    tops = {name.split("/")[0] for name in files if not name.startswith("..")}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"infoseek"}
    assert any(name.endswith("/bin/infoseek") for name in files)  # the console script


WHERE_FROM = """
import importlib.util, json, infoseek, infoseek.solvers, infoseek.inspect_tasks._registry
print(json.dumps({
    "infoseek": infoseek.__file__,
    "solvers": infoseek.solvers.__file__,
    "layers_on_top": [name for name in ("builders", "solvers", "scorers", "oracles",
                      "inspect_tasks") if importlib.util.find_spec(name) is not None],
}))
"""


def test_the_wheel_is_what_the_venv_imports(installed: Installed, tmp_path: Path) -> None:
    found = json.loads(run([installed.python, "-c", WHERE_FROM], cwd=tmp_path).stdout)
    venv = installed.venv.resolve()
    assert Path(found["infoseek"]).resolve().is_relative_to(venv), found
    assert Path(found["solvers"]).resolve().is_relative_to(venv), found
    assert found["layers_on_top"] == []


def test_installed_logic_mt_runs_by_name_from_another_folder(installed: Installed,
                                                              tmp_path: Path) -> None:
    start = time.perf_counter()
    run([installed.python, "-m", "inspect_ai", "eval", "infoseek/logic_mt",
         "--model", "infoseek/optimal", "--limit", "2", "-T", "per_k=2",
         "--log-dir", tmp_path / "logs", "--display", "none"], cwd=tmp_path)
    installed.seconds["logic_mt"] = time.perf_counter() - start
    (log_file,) = (tmp_path / "logs").glob("*.eval")
    log = read_eval_log(str(log_file))
    assert log.status == "success"
    assert log.eval.task_registry_name == "infoseek/logic_mt"
    assert len(log.samples) == 2
    accuracy = log.results.scores[0].metrics["accuracy"].value
    assert log.results.scores[0].name == "final_answer" and accuracy == 1.0


USER_SCORERS = '''
from inspect_ai.scorer import Score, Target, accuracy, scorer


@scorer(metrics=[accuracy()])
def my_scorer():
    async def score(state, target: Target) -> Score:
        return Score(value=1.0 if state.output.completion == target.text else 0.0)

    return score
'''

USER_SOLVERS = '''
from inspect_ai.model import ModelOutput
from inspect_ai.solver import solver


@solver
def my_solver():
    async def solve(state, generate):
        state.output = ModelOutput.from_content("user/model", "42")
        return state

    return solve
'''

USER_TASK = '''
from inspect_ai import Task, task
from inspect_ai.dataset import Sample

from scorers import my_scorer
from solvers import my_solver


@task
def my_task():
    return Task(dataset=[Sample(input="six times seven?", target="42")],
                solver=my_solver(), scorer=my_scorer())
'''


def write_user_folder(folder: Path) -> Path:
    folder.mkdir()
    (folder / "scorers.py").write_text(textwrap.dedent(USER_SCORERS))
    (folder / "solvers.py").write_text(textwrap.dedent(USER_SOLVERS))
    (folder / "my_task.py").write_text(textwrap.dedent(USER_TASK))
    return folder / "my_task.py"


def run_user_task_beside_logic_mt(python: Path | str, tmp_path: Path) -> None:
    """`inspect eval <folder>/my_task.py infoseek/logic_mt` run from another folder: Inspect
    appends the task's folder to the end of `sys.path`, so an installed top-level
    `scorers` or `solvers` package (the old layout) would be imported instead of the
    user's modules and the task file would fail with ImportError."""
    task_file = write_user_folder(tmp_path / "mine")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run([python, "-m", "inspect_ai", "eval", os.path.relpath(task_file, elsewhere),
         "infoseek/logic_mt",
         "--model", "infoseek/optimal", "--limit", "1", "-T", "per_k=1",
         "--log-dir", tmp_path / "logs", "--display", "none"], cwd=elsewhere)
    logs = {log.eval.task: log for log in map(read_eval_log, map(str, (tmp_path / "logs")
                                                                 .glob("*.eval")))}
    assert set(logs) == {"my_task", "logic_mt"}
    mine = logs["my_task"]
    assert mine.status == "success"
    assert mine.results.scores[0].name == "my_scorer"
    assert mine.results.scores[0].metrics["accuracy"].value == 1.0
    assert mine.plan.steps[0].solver == "my_solver"
    assert logs["logic_mt"].status == "success"


def test_user_scorers_and_solvers_beside_a_task_file_in_the_wheel_venv(
        installed: Installed, tmp_path: Path) -> None:
    run_user_task_beside_logic_mt(installed.python, tmp_path)


def test_user_scorers_and_solvers_beside_a_task_file_in_this_environment(
        tmp_path: Path) -> None:
    run_user_task_beside_logic_mt(sys.executable, tmp_path)
