"""`infoseek sweep` on bad input (issue 30, class 9): a --per-k above a task's cap, an
unknown model provider, a --log-dir that is a file or a device, and a log folder holding
a corrupt log each end in one line saying what to fix and exit status 2, before any run
starts (`eval_set` is never reached)."""

from __future__ import annotations

from pathlib import Path

import pytest

from infoseek.cli import main


@pytest.fixture
def no_eval_set(monkeypatch):
    import inspect_ai

    def refuse(*args, **kwargs):
        raise AssertionError("eval_set ran before the arguments were checked")

    monkeypatch.setattr(inspect_ai, "eval_set", refuse)


def sweep(log_dir: Path | str, *args: str, model: str = "infoseek/random") -> int:
    return main(["sweep", "force_ask", "--model", model, "--log-dir", str(log_dir), *args])


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("infoseek sweep: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_a_per_k_above_a_tasks_cap(tmp_path, capsys, no_eval_set) -> None:
    assert sweep(tmp_path / "logs", "--per-k", "100000") == 2
    err = one_line(capsys)
    assert "--per-k 100000" in err and "logic_mt" in err and "10000" in err
    assert not (tmp_path / "logs").exists()


def test_an_unknown_provider(tmp_path, capsys, no_eval_set) -> None:
    assert sweep(tmp_path / "logs", "--per-k", "1", model="nope/model") == 2
    err = one_line(capsys)
    assert "--model nope/model" in err and "nope" in err


@pytest.mark.parametrize("where", ["a file", "a device", "under a file", "empty"])
def test_a_log_dir_that_is_no_folder(tmp_path, capsys, no_eval_set, where) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("mine\n", encoding="utf-8")
    log_dir = {"a file": blocker, "a device": Path("/dev/null"),
               "under a file": blocker / "logs", "empty": ""}[where]
    assert sweep(log_dir, "--per-k", "1") == 2
    err = one_line(capsys)
    assert (f"--log-dir {log_dir}" if log_dir else "--log-dir is empty") in err
    assert blocker.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("content", [b"garbage\n", b"PK\x03\x04 not a zip"],
                         ids=["text", "truncated zip"])
def test_a_log_folder_holding_a_corrupt_log(tmp_path, capsys, no_eval_set, content) -> None:
    log_dir = tmp_path / "logs"
    log_dir.mkdir()
    corrupt = log_dir / "2026-01-01T00-00-00_logic-mt_x.eval"
    corrupt.write_bytes(content)
    assert sweep(log_dir, "--per-k", "1") == 2
    err = one_line(capsys)
    assert str(corrupt) in err and "cannot be read" in err
    assert corrupt.read_bytes() == content


def test_a_log_folder_holding_logs_of_other_runs(tmp_path, capsys) -> None:
    """Inspect refuses to start (a sweep needs a folder of its own): said in one line in
    the sweep's words, not with Inspect's option the sweep does not offer."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import match

    from tests.support.common import text_output

    log_dir = tmp_path / "logs"
    other = Task(dataset=[Sample(input="Say hi", target="hi")], scorer=match(), name="say_hi")
    [log] = inspect_eval(other, model=get_model("mockllm/model",
                                                custom_outputs=[text_output("hi")]),
                         log_dir=str(log_dir), display="none")
    assert sweep(log_dir, "--per-k", "1") == 2
    captured = capsys.readouterr().err
    assert "Traceback" not in captured
    err = captured.strip().splitlines()[-1]  # after the builders' progress lines
    assert err.startswith(f"infoseek sweep: --log-dir {log_dir} holds logs that are not "
                          "runs of this sweep"), captured
    assert Path(log.location).name in err and "allow-dirty" not in err
