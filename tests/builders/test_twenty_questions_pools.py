"""The shipped Twenty Questions pools (issue 31 item 3): the Thing pool mixes kinds in
THING200's shares, no built-in pool has an attribute with one label across it that its
choice of candidates caused, and ``pools.json``'s ``include`` field is checked on load."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from infoseek.builders.twenty_questions.pools import (
    DATA_DIR,
    KINDS,
    POOL_NAMES,
    Pool,
    PoolFileError,
    avoidable_constant_attributes,
    constant_attributes,
    get_pool,
    kind_counts,
    list_pool,
    load_pools,
    paper_pool,
    place_attributes,
    table,
)


@pytest.mark.parametrize("name", POOL_NAMES)
def test_no_builtin_pool_has_an_avoidable_one_label_attribute(name):
    pool = get_pool(name)
    assert avoidable_constant_attributes(pool) == [], (
        f"pool {name!r}: these attributes have one label for every candidate; add "
        "candidates that differ on them")
    # what is left one-label is a place attribute in a pool without places
    assert set(constant_attributes(pool)) <= set(place_attributes())


def test_the_check_flags_the_one_label_attributes_of_an_objects_only_pool():
    """A pool of the Thing pool's objects alone (the Thing pool before the mix, which had
    43 one-label attributes) labels dozens of attributes one way for all:
    the check names them; `city` it leaves, as THING200 has no places either."""
    thing = get_pool("thing")
    objects = Pool("objects", thing.attributes,
                   tuple(c for c in thing.candidates if KINDS[c.group] == "object"),
                   (thing.targets[0],))
    flagged = avoidable_constant_attributes(objects)
    assert {"animal", "mammal", "fur", "food", "eats_meat", "nocturnal"} <= set(flagged)
    assert "city" not in flagged and "city" in constant_attributes(objects)
    assert {"city", "country", "capital"} <= set(place_attributes())
    assert len(constant_attributes(get_pool("thing"))) < len(constant_attributes(objects))


def test_the_thing_pool_mixes_kinds_in_thing200_shares():
    paper = kind_counts(paper_pool("paper_thing"))
    ours = kind_counts(get_pool("thing"))
    assert set(ours) == set(paper) == {"object", "food", "animal", "plant", "person"}
    for kind in paper:
        share, wanted = ours[kind] / sum(ours.values()), paper[kind] / sum(paper.values())
        assert abs(share - wanted) < 0.01, (kind, round(share, 3), round(wanted, 3))


def test_every_thing200_animal_and_food_with_a_row_is_in_the_thing_pool():
    thing = {c.name for c in get_pool("thing").candidates}
    paper = [c.name for c in paper_pool("paper_thing").candidates if c.group != "unlisted"]
    assert [n for n in paper if n not in thing] == []


def _pools_with(tmp_path, thing_spec: dict) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    spec = json.loads((data / "pools.json").read_text())
    spec["thing"] = thing_spec
    (data / "pools.json").write_text(json.dumps(spec))
    load_pools(data)


@pytest.mark.parametrize(("include", "message"), [
    (["dog", "no such thing"], "'no such thing' is no candidate of candidates.txt"),
    (["dog", "dog"], "'dog' is listed twice"),
    (["hammer"], "'hammer' is already a member through its group 'object'"),
    ("dog", "field 'include' must be a list of candidate names"),
])
def test_a_bad_include_is_refused_in_one_line(tmp_path, include, message):
    with pytest.raises(PoolFileError, match=re.escape(message)) as info:
        _pools_with(tmp_path, {"groups": ["object"], "include": include, "targets": "all"})
    assert "pools.json: pool 'thing'" in str(info.value) and "\n" not in str(info.value)


def test_include_adds_candidates_in_table_order(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    spec = json.loads((data / "pools.json").read_text())
    spec["thing"] = {"groups": ["object"], "include": ["apple", "dog"], "targets": ["dog"]}
    (data / "pools.json").write_text(json.dumps(spec))
    pool = load_pools(data)["thing"]
    names = [c.name for c in pool.candidates]
    assert names[:2] == ["dog", "apple"] and pool.targets == ("dog",)
    assert kind_counts(pool) == {"animal": 1, "food": 1,
                                 "object": sum(c.group == "object" for c in table())}


# ------------------------------------------------------- pools named by their members


def test_the_common_pool_names_its_members_so_new_rows_stay_out(tmp_path):
    """Common lists its 388 candidates: a row added to the table (of a Common group)
    joins no built-in pool by its group alone, yet a name list finds it."""
    assert len(get_pool("common").candidates) == 388
    in_pools = {c.name for name in POOL_NAMES for c in get_pool(name).candidates}
    assert "Meerkat" not in in_pools
    assert list_pool("t", ["Meerkat"], ["Meerkat", "dog"]).candidates[0].group == "animal"
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    with (data / "candidates.txt").open("a", encoding="utf-8") as out:
        out.write("okapi | animal | okapis | " + "y" * 3 + "n" * (len(table()[0].row) - 3)
                  + "\n")
    assert "okapi" not in {c.name for c in load_pools(data)["common"].candidates}


def test_candidates_beside_groups_is_refused(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    spec = json.loads((data / "pools.json").read_text())
    spec["common"]["groups"] = ["animal"]
    (data / "pools.json").write_text(json.dumps(spec))
    with pytest.raises(PoolFileError, match="give either 'candidates' or 'groups'"):
        load_pools(data)


def test_a_listed_name_takes_the_row_it_is_an_alias_of_unless_that_row_is_listed_too():
    """``Grapes`` is an alias of the row ``grape``: listed alone it takes that row under
    its own name; listed beside ``grape`` it is another thing, without a row."""
    alone = list_pool("t", ["Grapes"], ["Grapes", "dog"])
    assert {c.name: c.row for c in alone.candidates}["Grapes"] == next(
        c.row for c in table() if c.name == "grape")
    both = list_pool("t", ["grape"], ["grape", "Grapes"])
    assert {c.name: c.group for c in both.candidates}["Grapes"] == "unlisted"
