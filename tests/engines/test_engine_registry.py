"""The engine registry: a record's ``engine.kind`` picks the factory registered for it."""

from __future__ import annotations

import pytest

from infoseek import engines
from infoseek.engines.bruteforce import BruteForceEngine
from infoseek.engines.cnf import CnfEngine
from infoseek.engines.horn import HornEngine
from infoseek.records import RecordError, check_record, engine_from_record


def record(kind: str, clauses: list[list[str]]) -> dict:
    return {"id": "r1", "variables": ["a", "b", "y"], "observed": {},
            "target": "y", "engine": {"kind": kind, "clauses": clauses}}


HORN = [["not a", "y"], ["not b", "y"]]
NOT_HORN = [["a", "b", "y"]]


def test_the_built_in_kinds_are_registered():
    assert {"horn", "cnf", "arith"} <= set(engines.engine_kinds())


def test_horn_and_cnf_records_get_their_engines():
    assert isinstance(engine_from_record(record("horn", HORN)), HornEngine)
    # a cnf record whose clauses are all Horn takes the exact Horn propagation
    assert isinstance(engine_from_record(record("cnf", HORN)), HornEngine)
    assert isinstance(engine_from_record(record("cnf", NOT_HORN)), CnfEngine)


def test_a_new_kind_joins_by_registering_itself(monkeypatch):
    monkeypatch.setattr(engines, "_FACTORIES", dict(engines._FACTORIES))
    monkeypatch.setattr(engines, "_RESOLVED", dict(engines._RESOLVED))

    def table_engine(rec: dict) -> BruteForceEngine:
        return BruteForceEngine(rec["variables"], {v: (False, True) for v in rec["variables"]},
                                lambda w: w["y"] == (w["a"] or w["b"]), rec["observed"],
                                rec["target"])

    engines.register_engine("toy-table", table_engine)
    engine = engine_from_record(record("toy-table", []))
    assert isinstance(engine, BruteForceEngine)
    assert engine.target_values({"a": True}) == frozenset({True})
    assert "toy-table" in engines.engine_kinds()


def test_an_unknown_kind_names_the_registered_ones():
    with pytest.raises(RecordError, match=r"r1: unknown engine kind 'nope'; registered: .*horn"):
        engine_from_record(record("nope", HORN))


def test_a_taken_kind_cannot_be_given_another_factory(monkeypatch):
    monkeypatch.setattr(engines, "_FACTORIES", dict(engines._FACTORIES))
    monkeypatch.setattr(engines, "_RESOLVED", dict(engines._RESOLVED))
    engines.register_engine("horn", "infoseek.engines.horn:from_record")  # the same one again: fine
    with pytest.raises(ValueError, match="already registered"):
        engines.register_engine("horn", lambda rec: None)


@pytest.mark.parametrize("factory", [None, 3, "no_colon_path"])
def test_a_factory_must_be_callable_or_a_path(factory):
    with pytest.raises(ValueError, match="factory"):
        engines.register_engine("x", factory)


def _full(rec: dict) -> dict:
    return {**rec, "domain": "toy", "queryable": ["a", "b"], "k": 1, "mss_family": [["a"]]}


def test_check_record_runs_the_check_registered_with_the_engine(monkeypatch):
    monkeypatch.setattr(engines, "_FACTORIES", dict(engines._FACTORIES))
    monkeypatch.setattr(engines, "_RESOLVED", dict(engines._RESOLVED))
    monkeypatch.setattr(engines, "_CHECKS", dict(engines._CHECKS))

    def table_engine(rec: dict) -> BruteForceEngine:
        return BruteForceEngine(rec["variables"], {v: (False, True) for v in rec["variables"]},
                                lambda w: True, rec["observed"], rec["target"])

    def needs_table(rec: dict, names: set[str]) -> None:
        if not isinstance(rec["engine"].get("table"), dict):
            raise engines.EngineFormError("engine.table", "must be an object")

    engines.register_engine("toy-table", table_engine, check=needs_table)
    good = _full({**record("toy-table", []), "engine": {"kind": "toy-table", "table": {}}})
    check_record(good, "toy.jsonl:1")  # a registered kind passes, with its own check
    with pytest.raises(RecordError, match=r"toy.jsonl:2: field 'engine.table' must be an"):
        check_record(_full(record("toy-table", [])), "toy.jsonl:2")
    with pytest.raises(RecordError, match=r"field 'engine' must be an object with a registered"):
        check_record(_full(record("nope", [])), "toy.jsonl:3")


def test_an_unregistered_kind_is_unknown_again() -> None:
    engines.register_engine("scratch-kind", lambda record: None)
    assert "scratch-kind" in engines.engine_kinds()
    engines.unregister_engine("scratch-kind")
    assert "scratch-kind" not in engines.engine_kinds()
    with pytest.raises(engines.UnknownEngineKind):
        engines.build_engine({"engine": {"kind": "scratch-kind"}})
