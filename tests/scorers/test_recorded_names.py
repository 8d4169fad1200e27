"""The one table of renamed scorers (`infoseek.scorers.recorded_names`): every old name
maps to a scorer the suite has now, and no old name is still in use."""

from __future__ import annotations

from infoseek.inspect_tasks._registry import RECORDED_SCORER_NAMES
from infoseek.scorers.recorded_names import RENAMED_SCORERS, current_scorer_name
from infoseek.scorers.seek import SEEK_SCORER_NAMES


def test_every_old_name_maps_to_a_scorer_of_today() -> None:
    assert RENAMED_SCORERS == {"answer": "final_answer"}
    for old, new in RENAMED_SCORERS.items():
        assert new in RECORDED_SCORER_NAMES, new
        assert old not in RECORDED_SCORER_NAMES, old


def test_names_never_renamed_are_kept() -> None:
    assert current_scorer_name("answer") == "final_answer"
    for name in (*SEEK_SCORER_NAMES, "k_prediction_scorer", "someone_elses"):
        assert current_scorer_name(name) == name
