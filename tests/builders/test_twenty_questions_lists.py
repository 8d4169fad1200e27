"""Twenty Questions on any target and candidate list, and on the paper's (issue 31 item 3):
name-list files (`read_name_list`), the paper's lists carried as data, `-T source` and
`-T pool` of `twenty_questions`, candidates without a table row labelled by an evaluator
model and refused offline before any sample runs, the two cells fixed, and the check that
flags attributes with one label across a whole pool."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, get_model

from infoseek.builders.twenty_questions import builder
from infoseek.builders.twenty_questions.pools import (
    DATA_DIR,
    PAPER_LISTS,
    UNKNOWN,
    Attribute,
    Candidate,
    Pool,
    PoolFileError,
    constant_attributes,
    get_pool,
    list_pool,
    missing_rows_line,
    paper_lists,
    paper_pool,
    read_name_list,
)
from infoseek.contract import STORE_TURNS, TASK_SOURCE
from infoseek.inspect_tasks.inspect_private import PrerequisiteError
from infoseek.inspect_tasks.report.reading import data_identity
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import assert_eval_success, text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

UNLISTED = ["Blorptail", "Quenzil", "Vark moth"]
"""Made-up names the table will never hold a row for."""

# ------------------------------------------------------------------------- list files


def test_a_name_list_is_a_json_list_an_object_of_lists_or_one_name_per_line(tmp_path):
    (tmp_path / "a.json").write_text('["dog", " Cat "]')
    (tmp_path / "b.json").write_text('{"animals": ["dog"], "food": ["apple", "dog"]}')
    (tmp_path / "c.txt").write_text("# targets\ndog\n\n  cat  \n")
    assert read_name_list(tmp_path / "a.json") == ["dog", "Cat"]
    assert read_name_list(tmp_path / "b.json") == ["dog", "apple", "dog"]
    assert read_name_list(tmp_path / "c.txt") == ["dog", "cat"]


@pytest.mark.parametrize(("name", "text", "message"), [
    ("e.json", "[]", "holds no name"),
    ("f.json", '{"a": [1]}', "expected a JSON list of names"),
    ("g.json", "[oops", "not a readable JSON file"),
    ("h.txt", "dog\n---\n", "line 2: '---' is no name"),
    ("i.txt", "# only a comment\n", "holds no name"),
])
def test_a_bad_name_list_is_refused_naming_file_and_place(tmp_path, name, text, message):
    (tmp_path / name).write_text(text)
    with pytest.raises(PoolFileError, match=re.escape(message)) as info:
        read_name_list(tmp_path / name)
    assert name in str(info.value) and "\n" not in str(info.value)


def test_list_names_take_table_rows_by_name_never_through_an_alias():
    pool = list_pool("mine", ["Mt. Everest", "dog"],
                     ["Dog", "Tarantula", "Spider", "Mount Everest", "dog", *UNLISTED])
    names = [c.name for c in pool.candidates]
    # "Dog" and "dog" are one candidate; Tarantula (a table alias of spider) is its own thing
    assert names == ["dog", "Tarantula", "spider", "Mount Everest", *UNLISTED]
    assert pool.targets == ("Mount Everest", "dog")
    assert pool.missing == ("Tarantula", *UNLISTED)
    # the table's spider answers to "tarantula"; in this list that name is Tarantula's
    assert "tarantula" in [a.lower() for a in get_pool("common").candidate("spider").aliases]
    assert "tarantula" not in [a.lower() for a in pool.candidates[2].aliases]
    assert pool.candidates[1].row == UNKNOWN * len(pool.attributes)


# --------------------------------------------------------------- the paper's lists


def test_the_paper_lists_are_carried_with_their_provenance():
    lists = paper_lists()
    assert "mims-harvard/MT-InfoSeek" in lists["about"]
    assert (DATA_DIR / "paper_lists_provenance.txt").read_text().count("MT-InfoSeek") >= 1
    assert sum(map(len, lists["common_targets"].values())) == 111
    assert sum(map(len, lists["common_candidate_pool"].values())) == 405
    assert (len(lists["thing200_targets"]), len(set(lists["thing200_targets"]))) == (200, 188)
    assert len(lists["thing200_candidate_pool"]) == 188
    common, thing = paper_pool("paper_common"), paper_pool("paper_thing")
    assert (len(common.targets), len(common.candidates)) == (111, 400)  # 5 names twice
    assert (len(thing.targets), len(thing.candidates)) == (188, 188)
    assert dict(common.provenance)["lists"] == PAPER_LISTS


def test_thing200_runs_offline_through_the_table(tmp_path):
    """Every one of THING200's 188 names has a table row (the Common list's rows for the
    seven names the two lists share included), so the paper's Thing lists run offline."""
    chosen = paper_pool("paper_thing")
    assert chosen.missing == ()
    [log] = inspect_eval(twenty_questions, task_args={"pool": "paper_thing"},
                         model="infoseek/optimal", limit=2, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert_eval_success(log)
    assert [s.target for s in log.samples] == list(chosen.targets[:2])
    assert all(s.scores["twenty_questions"].value["accuracy"] == 1.0 for s in log.samples)


def test_a_paper_list_with_a_made_up_target_is_refused_offline(tmp_path):
    """A targets file over the paper's Thing pool: a name the table holds no row for
    joins the candidates, and the offline run is refused naming it."""
    (tmp_path / "targets.txt").write_text("monkey\nQuenzil\n")
    with pytest.raises(TaskParameterError) as info:
        inspect_eval(twenty_questions, model="infoseek/optimal", limit=1, display="none",
                     task_args={"pool": "paper_thing", "source": str(tmp_path / "targets.txt")})
    message = str(info.value)
    chosen = paper_pool("paper_thing", ["monkey", "Quenzil"])
    assert chosen.missing[-1] == "Quenzil" and len(chosen.candidates) == 189
    assert isinstance(info.value, PrerequisiteError) and "\n" not in message
    assert missing_rows_line(chosen) in message
    assert "--model-role evaluator=" in message


# -------------------------------------------------------------- -T source and -T pool


def test_source_replaces_the_targets_of_a_shipped_pool(tmp_path):
    (tmp_path / "targets.txt").write_text("cat\nDog\ncat\n")
    task = twenty_questions(pool="common", source=str(tmp_path / "targets.txt"))
    records = [sample_problem(s.metadata) for s in task.dataset]
    assert [r["answer"] for r in records] == ["cat", "dog"]
    assert records[0]["engine"]["candidates"] == [c.name for c in get_pool("common").candidates]
    assert records[0]["provenance"]["source"] == "targets.txt"
    assert re.fullmatch(r"[0-9a-f]{12}", records[0]["provenance"]["source_sha256"])


def test_the_default_pools_records_are_unchanged_by_the_list_machinery():
    task = twenty_questions()
    assert [s.id for s in task.dataset] == [r["id"] for r in builder.game_records("common")]
    assert [sample_problem(s.metadata) for s in task.dataset][3] == \
        builder.game_records("common")[3]


def test_a_bad_pool_or_source_is_one_line(tmp_path):
    for args, message in (({"pool": "nope"}, "-T pool must be one of common, thing, "
                           "paper_common, paper_thing or a candidates file; got 'nope'"),
                          ({"source": str(tmp_path / "none.txt")}, "no such file")):
        with pytest.raises(TaskParameterError, match=re.escape(message)):
            twenty_questions(**args)


def _lists(tmp_path) -> tuple[str, str]:
    (tmp_path / "targets.json").write_text(json.dumps(["dog", "cat"]))
    (tmp_path / "candidates.txt").write_text("\n".join(["dog", "cat", "horse", *UNLISTED]))
    return str(tmp_path / "targets.json"), str(tmp_path / "candidates.txt")


def test_a_list_with_unlisted_candidates_is_refused_offline(tmp_path):
    source, pool = _lists(tmp_path)
    with pytest.raises(TaskParameterError) as info:
        inspect_eval(twenty_questions, task_args={"source": source, "pool": pool},
                     model="infoseek/optimal", limit=1, display="none")
    assert "3 of 6 candidates have no table row (Blorptail, Quenzil, Vark moth)" in str(
        info.value)


def test_a_list_with_unlisted_candidates_runs_with_a_scripted_evaluator(tmp_path):
    source, pool = _lists(tmp_path)
    requests: list[str] = []

    def evaluator(input, tools, tool_choice, config) -> ModelOutput:
        text = input[-1].text
        requests.append(text)
        listed = re.findall(r"(?m)^\d+\. (.+)$", text.split("Candidates:\n", 1)[1])
        # right for the table's candidates, and Yes for the three it has no row for
        return text_output("\n".join(
            f"{i}. {'no' if name in ('dog', 'cat', 'horse') and 'fly' in text else 'yes'}"
            for i, name in enumerate(listed, 1)))

    guesser = iter(["Can X fly?", "Is X alive?", "Guess: dog"])
    [log] = inspect_eval(
        twenty_questions, task_args={"source": source, "pool": pool, "label_batch": 10},
        model=get_model("mockllm/model", custom_outputs=lambda *a: text_output(next(guesser))),
        model_roles={"evaluator": get_model("mockllm/model", custom_outputs=evaluator)},
        limit=1, log_dir=str(tmp_path / "logs"), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    value = sample.scores["twenty_questions"].value
    asked = [t for t in turns_from_store(sample.store[STORE_TURNS]) if t.get("question")]
    assert [t["labels"] for t in asked] == [["no", "no", "no", "yes", "yes", "yes"],
                                            ["yes"] * 6]
    assert all(t["label_source"] == "model" for t in asked) and len(requests) == 2
    assert "Blorptail" in requests[0]
    # measured only where the table holds the truth: three candidates per question
    assert value["role_evaluator_measured"] == 6 and value["role_evaluator_wrong"] == 0
    assert value["accuracy"] == 1.0 and value["label_failures"] == 0
    assert log.eval.task_args["source"] == source  # the parameter is used, not warned about


def test_list_files_are_recorded_as_the_task_source_with_their_hashes(tmp_path):
    """`-T source=` / `-T pool=` files are named and hashed in the task metadata the way
    other tasks record theirs, so the report keys the run on them, never ``#unhashed``."""
    (tmp_path / "targets.json").write_text(json.dumps(["dog", "cat"]))
    (tmp_path / "candidates.txt").write_text("dog\ncat\nhorse\nlion\n")
    source, pool = str(tmp_path / "targets.json"), str(tmp_path / "candidates.txt")
    digest = {p: hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in (source, pool)}
    one = twenty_questions(pool="common", source=source).metadata[TASK_SOURCE]
    assert one == {"file": "targets.json", "sha256": digest[source], "sha256_of": "file",
                   "format": "names", "files": [{"parameter": "source", "file": "targets.json",
                                                 "sha256": digest[source]}]}
    assert data_identity({TASK_SOURCE: one}, source, "x")["data.source"] == \
        f"targets.json#{digest[source][:12]}"
    both = twenty_questions(pool=pool, source=source).metadata[TASK_SOURCE]
    assert both["file"] == "targets.json + candidates.txt" and both["sha256_of"] == "files"
    assert both["sha256"] == hashlib.sha256(
        f"{digest[source]}\n{digest[pool]}\n".encode()).hexdigest()
    assert [f["parameter"] for f in both["files"]] == ["source", "pool"]
    only_pool = twenty_questions(pool=pool).metadata[TASK_SOURCE]
    assert (only_pool["file"], only_pool["sha256"]) == ("candidates.txt", digest[pool])
    # another list is another source; the shipped and the paper's pools record none
    Path(pool).write_text("dog\ncat\n")
    assert twenty_questions(pool=pool).metadata[TASK_SOURCE]["sha256"] != digest[pool]
    for shipped in ("common", "thing", "paper_thing"):
        assert TASK_SOURCE not in twenty_questions(pool=shipped).metadata


# ------------------------------------------------------------ the table's cells


def test_the_two_cells_judged_wrong_are_fixed():
    common = get_pool("common")
    column = {a.id: i for i, a in enumerate(common.attributes)}
    assert common.candidate("rocket").row[column["electric"]] == "y"
    assert common.candidate("snail").row[column["nocturnal"]] == "y"


def test_constant_attributes_flags_an_attribute_with_one_label_across_a_pool():
    attributes = tuple(Attribute(a, f"Is X {a}?", (a,)) for a in ("alive", "red", "big"))
    pool = Pool("toy", attributes, (Candidate("a", "thing", (), "yyn"),
                                    Candidate("b", "thing", (), "ynp"),
                                    Candidate("c", "thing", (), "y" + UNKNOWN * 2)), ("a",))
    assert constant_attributes(pool) == ["alive"]
    assert constant_attributes(Pool("one", attributes, pool.candidates[:1], ("a",))) == []
