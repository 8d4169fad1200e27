"""The registry of the reference models' strategies (`infoseek.solvers.reference.strategy`):
every protocol is registered, `decide` dispatches on it, and a new protocol joins with
one `register_strategy` line."""

from __future__ import annotations

import random
from typing import Any

import pytest

from infoseek import contract
from infoseek.solvers.reference import strategy as reference_strategy
from infoseek.solvers.reference.strategy import (
    BFS_MODELS,
    GENERAL_MODELS,
    REFERENCE_MODEL_NAMES,
    decide,
    register_strategy,
    strategy,
)

K2 = {"id": "p1", "k": 2, "mss_family": [["a", "b"]]}


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A private copy of the registry, so that a test may register freely."""
    monkeypatch.setattr(reference_strategy, "_STRATEGIES",
                        dict(reference_strategy._STRATEGIES))


def echo_move(model_name: str, protocol: str, problem: dict[str, Any], turns: list,
              options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return {"kind": "text", "text": f"{model_name} plays {protocol} on {problem['id']} "
                                    f"after {len(turns)} turn(s): {rng.random():.6f}"}


def test_every_protocol_of_the_contract_has_a_strategy():
    for protocol in contract.PROTOCOLS:
        assert set(GENERAL_MODELS) <= set(strategy(protocol).models), protocol
    for protocol in contract.SINGLE_TURN_PROTOCOLS:
        assert set(strategy(protocol).models) == set(REFERENCE_MODEL_NAMES)
    assert not set(BFS_MODELS) & set(strategy("seek").models)


def test_decide_dispatches_on_the_protocol():
    assert decide("optimal", "k_prediction", K2, [], {}) == {"kind": "text",
                                                              "text": "Answer: 2"}
    assert decide("optimal", "mss_identification", K2, [], {}) == {"kind": "text",
                                                                    "text": "Answer: a, b"}


def test_refusals_name_what_is_wrong():
    with pytest.raises(ValueError, match="unknown reference model 'oracle'"):
        decide("oracle", "seek", K2, [], {})
    with pytest.raises(ValueError, match="unknown protocol 'chess'.*seek, k_prediction"):
        decide("optimal", "chess", K2, [], {})
    with pytest.raises(ValueError, match="infoseek/bfs-3 does not play the 'seek' protocol"):
        decide("bfs-3", "seek", K2, [], {})
    with pytest.raises(ValueError, match="unknown reference models"):
        register_strategy("chess", echo_move, models=("optimal", "grandmaster"))


def test_a_new_protocol_is_one_registration(registry):
    register_strategy("echo", echo_move)
    first = decide("random", "echo", K2, [{}], {"seed": 3})
    assert first["text"].startswith("random plays echo on p1 after 1 turn(s): ")
    assert decide("random", "echo", K2, [{}], {"seed": 3}) == first  # seeded by the store
    assert decide("random", "echo", K2, [{}], {"seed": 4}) != first
    with pytest.raises(ValueError, match="does not play"):
        decide("bfs-5", "echo", K2, [], {})


def test_a_strategy_may_be_named_by_its_path(registry):
    register_strategy("echo", "tests.solvers.test_reference_strategy:echo_move", models=BFS_MODELS)
    assert decide("bfs-10", "echo", K2, [], {})["text"].startswith("bfs-10 plays echo")
    with pytest.raises(ValueError, match="infoseek/optimal does not play the 'echo'"):
        decide("optimal", "echo", K2, [], {})
