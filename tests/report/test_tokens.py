"""Tokens and cost in the report (`infoseek.inspect_tasks.report.tokens`): a mockllm run
whose every output carries a known `ModelUsage` (one call per sample in the single-turn
task), a copy of it with planted per-sample usage that includes a role model, and a
reference run (zero tokens, said in words); costs hand-computed from a prices file, a
missing price and malformed prices files."""

from __future__ import annotations

import math
import uuid
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import ModelUsage, get_model

from infoseek.cli import main
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.report import ReportError, build_report
from infoseek.inspect_tasks.report.tokens import load_prices
from tests.support.common import text_output

TASK = "logic_k_prediction"
CALL = ModelUsage(input_tokens=1200, output_tokens=50, input_tokens_cache_read=400,
                  total_tokens=1650)
"""Every mock output's usage; the task makes one call per sample."""


def _output():
    output = text_output("I cannot tell.")
    output.usage = CALL.model_copy()
    return output


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("token-logs")
    model = get_model("mockllm/model", custom_outputs=[_output() for _ in range(2)])
    [mock] = inspect_eval(logic_k_prediction(k=1, per_k=2), model=model,
                          log_dir=str(folder / "mock"), display="none")
    [optimal] = inspect_eval(logic_k_prediction(k=1, per_k=2), model="infoseek/optimal",
                             log_dir=str(folder / "optimal"), display="none")
    assert mock.status == optimal.status == "success"
    # planted: the mock run as if by vendor/big, with a judge role on vendor/judge
    planted = read_eval_log(str(mock.location))
    planted.eval.model = "vendor/big"
    planted.eval.eval_id = uuid.uuid4().hex
    for sample in planted.samples:
        sample.model_usage = {
            "vendor/big": ModelUsage(input_tokens=1000, input_tokens_cache_write=200,
                                     input_tokens_cache_read=300, output_tokens=100),
            "vendor/judge": ModelUsage(input_tokens=500, output_tokens=20)}
        sample.role_usage = {"judge": ModelUsage(input_tokens=500, output_tokens=20)}
    (folder / "planted").mkdir()
    write_eval_log(planted, str(folder / "planted" / "planted.eval"))
    return folder


def _prices(tmp_path: Path, text: str, name: str = "prices.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


PRICES = """\
mockllm/model: {input: 3, output: 15, cached: 0.3}
vendor/big: {input: 2, output: 8, cached: 0.5, cache_write: 2.5}
"""


def _table(logs: Path, out: Path, prices: Path | None = None) -> pd.DataFrame:
    report = build_report([logs], out, bundle=False, prices=prices)
    [section] = [s for s in report.sections if s.task == TASK]
    [table] = [t for t in section.tables if t.name == "tokens"]
    assert table.csv.is_file() and table.md.read_text().count("\n") >= 5
    return table.frame.set_index("model"), table.display.set_index(table.frame["model"])


def test_tokens_per_sample_from_the_recorded_usage(logs, tmp_path) -> None:
    frame, display = _table(logs, tmp_path / "report")
    mock = frame.loc["mockllm/model"]
    assert mock["samples"] == 2
    assert (mock["input_per_sample"], mock["cached_per_sample"],
            mock["output_per_sample"]) == (1200, 400, 50)
    assert (mock["input_total"], mock["output_total"]) == (2400, 100)
    assert mock["roles_input_per_sample"] == 0
    # the model under test is every call less the role calls; cache writes are input
    big = frame.loc["vendor/big"]
    assert (big["input_per_sample"], big["cached_per_sample"],
            big["output_per_sample"]) == (1200, 300, 100)
    assert (big["roles_input_per_sample"], big["roles_output_per_sample"]) == (500, 20)
    assert big["roles"] == "judge: 500.0 in, 0.0 cached, 20.0 out"
    assert "cost" not in frame.columns
    # the reference player: exact zeros, said in words
    optimal = frame.loc["infoseek/optimal"]
    assert optimal["input_per_sample"] == 0 and optimal["output_total"] == 0
    assert "calls no language model" in optimal["note"]
    assert display.loc["mockllm/model", "input_total"] == "2400"
    assert display.loc["infoseek/optimal", "input_per_sample"] == "0"


def test_cache_reads_never_reported_are_unknown_not_zero(logs, tmp_path) -> None:
    """A provider that never reports cache reads (llama.cpp's server) leaves Inspect's
    ``input_tokens_cache_read`` None: the cached cells say so instead of showing 0,
    while a reported 0 stays 0 and the other counts are unchanged."""
    [mock_path] = list((logs / "mock").glob("*.eval"))
    (tmp_path / "logs").mkdir()
    for name, cached in (("vendor/silent", None), ("vendor/zero", 0)):
        planted = read_eval_log(str(mock_path))
        planted.eval.model = name
        planted.eval.eval_id = uuid.uuid4().hex
        for sample in planted.samples:
            sample.model_usage = {name: ModelUsage(input_tokens=900, output_tokens=30,
                                                   input_tokens_cache_read=cached)}
            sample.role_usage = {}
        write_eval_log(planted, str(tmp_path / "logs" / f"{name.split('/')[1]}.eval"))
    frame, display = _table(tmp_path / "logs", tmp_path / "report")
    assert math.isnan(frame.loc["vendor/silent", "cached_per_sample"])
    assert (display.loc["vendor/silent", "cached_per_sample"]
            == display.loc["vendor/silent", "cached_total"]
            == "n/a (the provider reports no cache reads)")
    assert display.loc["vendor/silent", "input_per_sample"] == "900"
    assert frame.loc["vendor/zero", "cached_per_sample"] == 0
    assert display.loc["vendor/zero", "cached_total"] == "0"


def test_cost_hand_computed_and_a_missing_price(logs, tmp_path) -> None:
    frame, display = _table(logs, tmp_path / "report", _prices(tmp_path, PRICES))
    # mock: per sample (1200 * 3 + 400 * 0.3 + 50 * 15) / 1e6 = 0.00447, two samples
    assert frame.loc["mockllm/model", "cost_per_sample"] == pytest.approx(0.00447)
    assert frame.loc["mockllm/model", "cost"] == pytest.approx(0.00894)
    assert display.loc["mockllm/model", "cost"] == "0.0089"
    # vendor/big's row also called vendor/judge, which has no price: no partial sum
    assert math.isnan(frame.loc["vendor/big", "cost"])
    assert display.loc["vendor/big", "cost"] == "n/a (no price: vendor/judge)"
    assert display.loc["vendor/big", "cost_per_sample"] == "n/a (no price: vendor/judge)"
    # the reference player spent no token: it costs 0 without a price of its own
    assert frame.loc["infoseek/optimal", "cost"] == 0
    assert display.loc["infoseek/optimal", "cost"] == "0.0000"
    priced = _prices(tmp_path, PRICES + "vendor/judge: {input: 1, output: 4}\n", "all.yaml")
    frame, _ = _table(logs, tmp_path / "report2", priced)
    # per sample: big 1000 * 2 + 200 * 2.5 + 300 * 0.5 + 100 * 8 = 3450, judge 500 + 80
    assert frame.loc["vendor/big", "cost_per_sample"] == pytest.approx(4030 / 1e6)
    assert frame.loc["vendor/big", "cost"] == pytest.approx(2 * 4030 / 1e6)


def test_json_prices_and_the_optional_prices(tmp_path) -> None:
    path = _prices(tmp_path, '{"a/m": {"input": 2, "output": 6.5}, "b/n": {"input": 1, '
                   '"output": 2, "cached": 0.1, "cache_write": 1.25}}', "prices.json")
    prices = load_prices(path)
    # without their own price, cache reads and writes are priced as input
    assert prices["a/m"] == {"input": 2.0, "output": 6.5, "cached": 2.0, "cache_write": 2.0}
    assert prices["b/n"] == {"input": 1.0, "output": 2.0, "cached": 0.1,
                             "cache_write": 1.25}


@pytest.mark.parametrize(("text", "says"), [
    ("- mockllm/model\n", "expected a mapping of model name"),
    ("", "expected a mapping of model name"),
    ("mockllm/model: {input: 3}\n", "mockllm/model: missing 'output'"),
    ("mockllm/model: {input: 3, output: -1}\n", "output must be a number >= 0"),
    ("mockllm/model: {input: 3, output: cheap}\n", "output must be a number >= 0"),
    ("mockllm/model: {input: 3, output: 1, cache: 1}\n", "unknown key 'cache'"),
    ("mockllm/model: 3\n", "mockllm/model: expected {input: ..., output: ...}"),
    ("mockllm/model: {input: 3, output: [1\n", "not valid JSON or YAML at line"),
])
def test_a_malformed_prices_file_fails_in_one_line(tmp_path, capsys, text, says) -> None:
    path = _prices(tmp_path, text)
    with pytest.raises(ReportError, match="--prices") as caught:
        build_report([tmp_path / "nowhere"], tmp_path / "out", bundle=False, prices=path)
    assert says in str(caught.value) and "\n" not in str(caught.value)
    assert main(["report", str(tmp_path), "--out", str(tmp_path / "out"), "--no-bundle",
                 "--quiet", "--prices", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("infoseek report: --prices ") and says in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()  # checked before any log is read
