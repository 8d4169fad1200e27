"""Running one task twice, once with the built-in loop and once with Inspect's `react()`
agent in its place (`-T solver=react`), and what the two runs must share: the episode in
the sample store and the scores.

The built-in loop and the agent see the same scripted outputs (a fresh `mockllm/model`
per run, every output with usage) or the same reference model; `played` returns each
sample's store and scores in comparable form.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.log import EvalSample
from inspect_ai.model import ModelOutput, get_model

from tests.support.common import MOCK_MODEL, assert_eval_success


def comparable(value: Any) -> Any:
    """`value` with every NaN made a string, so that two equal score dicts compare equal."""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, dict):
        return {key: comparable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [comparable(item) for item in value]
    return value


def episode_of(sample: EvalSample) -> dict[str, Any]:
    """The sample's infoseek store keys (turn records decoded) and its score values."""
    store = {key: (json.loads(value) if key in ("infoseek:turns", "infoseek:problem")
                   and isinstance(value, str) else value)
             for key, value in sample.store.items() if key.startswith("infoseek:")}
    scores = {name: comparable(score.value) for name, score in (sample.scores or {}).items()}
    return {"store": store, "scores": scores}


def played(task: Task, model: Any, log_dir: str, **kwargs: Any) -> list[EvalSample]:
    """The samples of one successful run of `task` with `model`."""
    [log] = eval(task, model=model, log_dir=log_dir, display="none", **kwargs)
    assert_eval_success(log)
    assert log.samples is not None
    return log.samples


def scripted(outputs: list[ModelOutput]):
    """A fresh `mockllm/model` that gives `outputs` in order."""
    return get_model(MOCK_MODEL, custom_outputs=list(outputs))


def loop_and_agent(make_task: Callable[[str], Task], model: Callable[[], Any], tmp_path,
                   **kwargs: Any) -> tuple[list[EvalSample], list[EvalSample]]:
    """The samples of `make_task("loop")` and of `make_task("react")`, each run with a
    fresh `model()`."""
    loop = played(make_task("loop"), model(), str(tmp_path / "loop"), **kwargs)
    agent = played(make_task("react"), model(), str(tmp_path / "react"), **kwargs)
    return loop, agent
