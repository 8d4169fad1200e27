"""`infoseek estimate`: per task its sample count and the estimated tokens of a run, the
same numbers as the random player's own log gives, and bad input refused in one line
before anything is built."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log

from infoseek.cli import main
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.report.estimate import (
    COLUMNS,
    PLAYER,
    estimate_row,
    spread,
    table_lines,
)
from infoseek.inspect_tasks.report.tokens import episode_estimate


def test_the_row_is_the_random_players_episodes_scaled_to_the_task(tmp_path) -> None:
    row = estimate_row("logic_mt", 3, tmp_path / "a", {"k": [1, 2], "per_k": 2})
    task = logic_mt(k=[1, 2], per_k=2)
    assert row["task"] == "logic_mt" and row["samples"] == len(task.dataset) == 8
    assert row["measured"] == 3
    ids = [task.dataset[i].id for i in spread(8, 3)]
    [log] = inspect_eval(task, model=PLAYER, sample_id=ids, log_dir=str(tmp_path / "b"),
                         display="none")
    episodes = [episode_estimate(s) for s in
                read_eval_log(log.location, resolve_attachments=True).samples]
    first = sum(e["first_prompt"] for e in episodes) / 3
    assert row["first_prompt"] == pytest.approx(first) and first > 500
    assert row["suite_first_prompts"] == pytest.approx(first * 8)
    whole = sum(e["prompt"] + e["output"] for e in episodes) / 3
    assert row["suite_episodes"] == pytest.approx(whole * 8)
    assert row["calls"] > 1 and row["role_calls"] == 0


def test_the_command_prints_the_note_and_a_row_per_task(capsys) -> None:
    code = main(["estimate", "logic_mt", "-T", "k=[1]", "-T", "per_k=1", "--samples", "1",
                 "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0 and "infoseek estimate:" not in err  # --quiet (builds still say so)
    note, head, line = out.splitlines()
    assert "ceil(characters / 4)" in note and "no tokenizer" in note and PLAYER in note
    assert head.split()[0] == "task" and "first prompt / sample (est.)" in head
    cells = line.split()
    assert cells[:3] == ["logic_mt", "2", "1"]  # one problem, two task instances; 1 played


def test_several_tasks_add_a_total_line_and_markdown_has_a_rule() -> None:
    rows = [{"task": t, "samples": n, "measured": 1, "first_prompt": 10.0, "calls": 1.0,
             "prompt": 10.0, "output": 2.0, "suite_first_prompts": 10.0 * n,
             "suite_episodes": 12.0 * n} for t, n in (("a", 3), ("b", 100))]
    text = table_lines(rows)
    assert len(text) == 4 and text[-1].split()[:3] == ["all", "tasks", "103"]
    assert text[-1].split()[-2:] == ["1,030", "1,236"]
    markdown = table_lines(rows, markdown=True)
    assert markdown[1] == "|" + "---|" * len(COLUMNS)
    assert markdown[-1].startswith("| all tasks | 103 | 2 |")


@pytest.mark.parametrize(("argv", "message"), [
    (["nosuch_task"], "unknown task 'nosuch_task'; the tasks are: "),
    (["logic_mt", "twenty_questions", "-T", "per_k=1"],
     "twenty_questions takes no parameter per_k"),
    (["logic_mt", "-T", "per_k=-3"], "logic_mt: -T per_k must be"),
    (["logic_mt", "-T", "per_k"], "-T 'per_k' must be NAME=VALUE"),
])
def test_bad_input_is_refused_in_one_line(capsys, argv, message) -> None:
    assert main(["estimate", *argv, "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"infoseek estimate: {message}")
    assert len(err.strip().splitlines()) == 1


def test_an_unknown_task_is_refused_before_any_task_is_built(capsys, monkeypatch) -> None:
    import infoseek.inspect_tasks.report.estimate as estimate

    def built(*args, **kwargs):
        raise AssertionError("a task was built before every name was checked")

    monkeypatch.setattr(estimate, "estimate_rows", built)
    assert main(["estimate", "logic_mt", "nosuch_task", "--quiet"]) == 2
    assert "unknown task 'nosuch_task'" in capsys.readouterr().err


def test_samples_must_be_positive(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["estimate", "logic_mt", "--samples", "0"])
    assert stop.value.code == 2
    assert "--samples: must be a positive integer, got 0" in capsys.readouterr().err


def test_recorded_tokens_sit_beside_the_estimate_of_the_same_calls(tmp_path) -> None:
    from inspect_ai.event import ModelEvent
    from inspect_ai.model import ModelUsage, get_model

    from infoseek.inspect_tasks.logic_q import logic_q
    from infoseek.inspect_tasks.report.estimate import recorded_against_estimate
    from infoseek.inspect_tasks.report.tokens import call_estimate
    from tests.support.common import MOCK_MODEL, text_output

    outputs = []
    for n in (1, 2):
        output = text_output("The question is about x.")
        output.usage = ModelUsage(input_tokens=300 * n, input_tokens_cache_read=50,
                                  output_tokens=9 * n, total_tokens=350 * n + 9 * n)
        outputs.append(output)
    model = get_model(MOCK_MODEL, custom_outputs=outputs)
    [log] = inspect_eval(logic_q(limit=2), model=model, log_dir=str(tmp_path), limit=2,
                         display="none")
    found = recorded_against_estimate(log.location)
    assert found["task"] == "logic_q" and found["calls"] == 2
    assert found["prompt"] == 300 + 600 + 2 * 50 and found["output"] == 27
    events = [e for s in read_eval_log(log.location, resolve_attachments=True).samples
              for e in s.events if isinstance(e, ModelEvent)]
    assert found["prompt_est"] == sum(call_estimate(e)[0] for e in events) > 100
    assert found["prompt_ratio"] == pytest.approx(1000 / found["prompt_est"])
    assert found["output_ratio"] == pytest.approx(27 / found["output_est"])
