"""Reasoning-trace diagnostics (protocols §4): MSS relative mention rate and awareness of
underspecification, as score metadata of the ``queries`` scorer and in the report."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ContentReasoning, ContentText, get_model

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report
from infoseek.scorers.trace_diagnostics import reasoning_of_output, trace_diagnostics
from infoseek.stored_forms import sample_problem
from tests.support.common import text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")


def test_mentions_and_awareness_from_text() -> None:
    texts = ["I should ask whether Ann is fair. Maybe also ask about kind.",
             "We do not have enough information yet. Is she fair? Cannot determine kind."]
    found = trace_diagnostics(texts, ["fair", "kind", "tall"], {"fair"})
    assert found["mentioned"] == ["fair", "kind"]
    assert found["mss_mention_rate"] == 0.5
    # "not enough information" names no variable; "Cannot determine kind" names one
    assert found["awareness_statements"] == 1 and found["awareness_episode"] == 1.0
    assert found["reasoning_turns"] == 2
    quiet = trace_diagnostics(["The answer follows from rule 3."], ["fair"], {"fair"})
    assert quiet["mentioned"] == [] and quiet["mss_mention_rate"] == 0.0
    assert quiet["awareness_statements"] == 0
    assert trace_diagnostics([], ["fair"], {"fair"})["reasoning_turns"] == 0


def test_names_match_as_words_only() -> None:
    found = trace_diagnostics(["Ask about unfair play and the back_pain duration."],
                              ["fair", "back pain duration"], {"fair"})
    assert found["mentioned"] == ["back pain duration"]
    assert found["mss_mention_rate"] == 0.0


def test_reasoning_blocks_and_free_text_are_read_action_lines_are_not() -> None:
    message = ChatMessageAssistant(content=[
        ContentReasoning(reasoning="Need to ask about fair."),
        ContentReasoning(reasoning="hidden", redacted=True),
        ContentText(text="Thinking aloud.\nQuestion: Is Ann fair?")])
    text = reasoning_of_output(message)
    assert "Need to ask about fair." in text and "Thinking aloud." in text
    assert "hidden" not in text and "Question:" not in text


def _reasoning_output(reasoning: str, action: str):
    output = text_output(action)
    output.choices[0].message.content = [ContentReasoning(reasoning=reasoning),
                                         ContentText(text=action)]
    return output


def test_a_reasoning_model_gets_diagnostics_and_the_same_scores(tmp_path: Path) -> None:
    task = PACKAGED_TASKS["logic_mt"](k=[1], per_k=1, format="text")
    sample = task.dataset[0]
    problem = sample_problem(sample.metadata)
    entity = problem.get("entity", "Alice")
    mss = problem["mss_family"][0]
    other = next(v for v in problem["queryable"]
                 if all(v not in m for m in problem["mss_family"]))
    answer = "yes" if sample.metadata["target_value"] is True else "no"
    actions = [f"Question: Is {entity} {mss[0]}?", f"Answer: {answer}"]
    thoughts = [f"There is not enough information. I could ask about {mss[0]} or {other}.",
                "Now it follows."]
    runs = {}
    for name, outputs in (("plain", [text_output(a) for a in actions]),
                          ("reasoning", [_reasoning_output(t, a)
                                         for t, a in zip(thoughts, actions)])):
        model = get_model("mockllm/model", custom_outputs=outputs)
        [log] = inspect_eval(PACKAGED_TASKS["logic_mt"](k=[1], per_k=1, format="text"),
                             model=model, limit=1, log_dir=str(tmp_path / name),
                             display="none")
        assert log.status == "success"
        runs[name] = log
    plain, traced = (runs[n].samples[0].scores for n in ("plain", "reasoning"))
    for scorer in plain:
        assert plain[scorer].value == traced[scorer].value  # metrics unchanged
    diagnostics = traced["queries"].metadata["diagnostics"]
    assert diagnostics["reasoning_turns"] == 2
    assert diagnostics["mentioned"] == [mss[0], other]
    assert diagnostics["mss_mention_rate"] == 0.5
    assert diagnostics["awareness_statements"] == 1
    assert plain["queries"].metadata["diagnostics"]["reasoning_turns"] == 0
    report = build_report([runs["plain"].location, runs["reasoning"].location],
                          tmp_path / "report", bundle=False)
    table = pd.read_csv(report.out / "tables" / "logic_mt.diagnostics.csv")
    # the two runs share model and setting: one row, averaged over the traced episode only
    assert list(table["samples"]) == [2] and list(table["episodes_with_reasoning"]) == [1]
    assert table["mss_mention_rate"].iloc[0] == 0.5
    assert table["awareness_statements"].iloc[0] == 1
