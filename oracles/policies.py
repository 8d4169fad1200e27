"""Oracle policies: who answers the model's queries, over any engine.

Every reply is consistent with C, with A plus all earlier replies, and with the hidden
target value y. The oracle never reveals y or anything beyond the asked variable.

Finite engines: the policy picks each reply among the values still consistent
(adversarial keeps the most target values possible, cooperative the fewest, random
follows one world drawn at the start).

Withholding (`infoseek.oracles.withholding`): the oracle's ``withheld`` variables are
answered `WITHHELD` ("unknown") whatever the policy; the ``withholding`` policy replies to
the rest as the adversarial one does. The ``withholding_all`` oracle is given its learnable
set (``keep_open_over``) and picks, in the adversarial order, the first reply after which
the learnable variables not yet answered still cannot settle the target (the engine's
exact `is_sufficient`): one always exists while that holds (the value an open completion
gives the asked variable), so the target is never Known in its episodes when the target
has two values (any open state allows both) or more and an open completion allows y.

World-backed oracles: given a `hidden_world` (a value for every leaf, as in math records)
every reply is that world's value (a quantity missing from the world is computed from
it by the engine). This is what the published math oracle does. When the engine's
domains cannot be listed (the arithmetic engine over the rationals) the policies cannot
range over the replies, so adversarial, cooperative and random all reduce to the
world-backed oracle, and a hidden world is then required. The start-up check never
enumerates target values: it checks that the hidden world is feasible and gives the
target the hidden value.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from infoseek.analysis import is_sufficient
from infoseek.engine import Engine, is_listable, json_value, ordered_values, possible_values_record
from infoseek.oracles.withholding import WITHHELD, WITHHOLDING_ALL_POLICY, WITHHOLDING_POLICY

WORLD_POLICY = "world"  # every reply from the hidden world (needs `hidden_world`)
UNSURE = "unsure"


@dataclass
class Oracle:
    """Answers queries for one hidden task instance (engine + hidden target value, and
    optionally the hidden world; see the module docstring for world-backed oracles)."""

    engine: Engine
    target_value: Any
    policy: str = "adversarial"
    seed: int = 0
    unsure_rate: float = 0.0
    answers: dict[str, Any] = field(default_factory=dict)
    hidden_world: dict[str, Any] | None = None
    #: variables that cannot be learned in this episode: asked, they get `WITHHELD`
    withheld: frozenset[str] = frozenset()
    #: the ``withholding_all`` oracle's learnable variables: replies keep them unable to
    #: settle the target (module docstring); None under every other oracle
    keep_open_over: frozenset[str] | None = None
    _values_memo: dict[tuple, frozenset] = field(default_factory=dict, repr=False, compare=False)
    #: the full world a world-drawing policy follows (drawn when the oracle is made)
    drawn_world: dict[str, Any] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        check_policy(self.policy)
        unbounded = not is_listable(self.engine.domain(self.engine.target))
        if (unbounded or self.policy == WORLD_POLICY) and self.hidden_world is None:
            raise ValueError("this oracle needs the hidden world (metadata 'hidden_world'): "
                             + ("the problem's values cannot be enumerated (unbounded domain)"
                                if unbounded else "the 'world' policy replies from it"))
        #: every reply comes from the hidden world (the "world" policy, and every policy
        #: when the domains are unbounded)
        self.world_backed = unbounded or self.policy == WORLD_POLICY
        if self.hidden_world is not None:
            self._check_world()
        elif self.target_value not in self.engine.target_values():
            raise ValueError("the hidden target value is impossible for this problem")
        self._rng = random.Random(f"oracle:{self.policy}:{self.seed}")
        #: the policy the replies follow (the withholding oracle's is the adversarial one)
        self.reply_policy = REPLY_POLICY_OF.get(self.policy, self.policy)
        policy = POLICIES.get(self.reply_policy)
        if policy is not None and policy.draws_world and not self.world_backed:
            self.drawn_world = self._draw_world()

    def _check_world(self) -> None:
        """The hidden world is feasible (with A) and gives the target the hidden value."""
        assert self.hidden_world is not None
        engine = self.engine
        world = {v: x for v, x in self.hidden_world.items() if v != engine.target}
        unknown = [v for v in world if v not in engine.variables]
        if unknown:
            raise ValueError(f"the hidden world names unknown variables {unknown[:5]}")
        if not engine.target_values(world):
            raise ValueError("the hidden world contradicts the problem's constraints or "
                             "observed values")
        if not engine.variable_values(engine.target, world, self.target_value):
            raise ValueError("the hidden world does not give the target the hidden value")

    def _draw_world(self) -> dict[str, Any]:
        """A full world with the hidden target value, drawn variable by variable."""
        engine = self.engine
        world: dict[str, Any] = {}
        order = [v for v in engine.variables if v not in engine.observed and v != engine.target]
        self._rng.shuffle(order)
        for var in order:
            values = ordered_values(
                engine.variable_values(var, world, self.target_value), engine.domain(var)
            )
            world[var] = self._rng.choice(values)
        return world

    def consistent_values(self, var: str) -> list[Any]:
        return ordered_values(
            self.engine.variable_values(var, self.answers, self.target_value),
            self.engine.domain(var),
        )

    def reply(self, var: str) -> Any:
        """The value revealed for `var` (or UNSURE for the random oracle's doubt, WITHHELD
        for a withheld variable, which is never added to the answers)."""
        if var == self.engine.target or var in self.engine.observed:
            raise ValueError(f"{var!r} is the target or observed; refuse it with check_query")
        if var not in self.engine.variables:
            raise ValueError(f"{var!r} is not a variable of this problem")
        if var in self.withheld:
            return WITHHELD
        if var in self.answers:
            return self.answers[var]
        if self.world_backed:
            value = self._world_value(var)
            self.answers[var] = value
            return value
        options = self.consistent_values(var)
        if not options:
            raise RuntimeError("no consistent value; the oracle state is corrupt")
        if self.keep_open_over is not None:
            value = _keeping_open(self, var, options)
            self.answers[var] = value
            return value
        policy = POLICIES[self.reply_policy]
        if (policy.draws_world and len(options) > 1 and self.unsure_rate
                and self._rng.random() < self.unsure_rate):
            return UNSURE
        value = policy.choose(self, var, options)
        self.answers[var] = value
        return value

    def remaining_target_values(self, var: str, value: Any) -> int:
        """How many target values stay possible if `var` is answered `value`."""
        return len(self._target_values({**self.answers, var: value}))

    def _world_value(self, var: str) -> Any:
        """`var`'s value in the hidden world (computed by the engine when the world
        holds only leaves), in JSON form."""
        assert self.hidden_world is not None
        if var in self.hidden_world:
            return json_value(self.hidden_world[var])
        world = {v: x for v, x in self.hidden_world.items() if v != self.engine.target}
        values = self.engine.variable_values(var, world)
        if len(values) != 1:
            raise RuntimeError(f"the hidden world does not determine {var!r}")
        return json_value(next(iter(values)))

    def target_status(self) -> tuple[Any, bool]:
        """(target values still possible, Known) after the replies, from one engine call:
        the values JSON-safe (a list in domain order, or `infoseek.engine.UNBOUNDED`,
        "many", when infinitely many remain)."""
        values = self._target_values(self.answers)
        return possible_values_record(values, self.engine.domain(self.engine.target)), (
            len(values) == 1)

    def possible_target_values(self) -> Any:
        return self.target_status()[0]

    def known(self) -> bool:
        return len(self._target_values(self.answers)) == 1

    def _target_values(self, assignment: dict[str, Any]) -> frozenset:
        """The engine's target values under `assignment`, remembered for the episode: the
        adversarial and cooperative policies weigh each possible reply by them, and the
        status after the reply asks for the same assignment again."""
        try:
            key = tuple(assignment.items())
            hash(key)
        except TypeError:  # a value that cannot be a key: ask the engine
            return self.engine.target_values(assignment)
        values = self._values_memo.get(key)
        if values is None:
            values = self._values_memo[key] = self.engine.target_values(assignment)
        return values


@dataclass(frozen=True)
class Policy:
    """How an oracle picks its reply among the values still consistent (finite engines;
    a world-backed oracle always replies from the hidden world)."""

    choose: Callable[[Oracle, str, list[Any]], Any]
    #: follows one full world drawn when the oracle is made, and may reply UNSURE (with
    #: the oracle's `unsure_rate`) where more than one value is consistent
    draws_world: bool = False


def _most_remaining(oracle: Oracle, var: str, options: list[Any]) -> Any:
    # the first value in domain order on ties
    return max(options, key=lambda v: oracle.remaining_target_values(var, v))


def _keeping_open(oracle: Oracle, var: str, options: list[Any]) -> Any:
    """The first value, in the adversarial order, after which the learnable variables not
    yet answered are still not sufficient (module docstring); the adversarial value when
    none is."""
    assert oracle.keep_open_over is not None
    rest = [v for v in sorted(oracle.keep_open_over) if v != var and v not in oracle.answers]
    ranked = sorted(options, key=lambda v: -oracle.remaining_target_values(var, v))
    for value in ranked:
        if not is_sufficient(oracle.engine, rest, {**oracle.answers, var: value}):
            return value
    return ranked[0]


def _fewest_remaining(oracle: Oracle, var: str, options: list[Any]) -> Any:
    return min(options, key=lambda v: oracle.remaining_target_values(var, v))


def _drawn_world(oracle: Oracle, var: str, options: list[Any]) -> Any:
    assert oracle.drawn_world is not None
    return oracle.drawn_world[var]


#: The oracle policies by name: a new policy is one entry here (and its docs).
POLICIES: dict[str, Policy] = {
    "adversarial": Policy(_most_remaining),
    "cooperative": Policy(_fewest_remaining),
    "random": Policy(_drawn_world, draws_world=True),
}
ORACLE_POLICIES: tuple[str, ...] = tuple(POLICIES)
REPLY_POLICY_OF: dict[str, str] = {WITHHOLDING_POLICY: "adversarial",
                                   WITHHOLDING_ALL_POLICY: "adversarial"}
"""Oracle names that are no reply policy of their own, with the policy their replies
follow (the withholding oracle replies adversarially to what can be learned)."""


def check_policy(name: Any) -> str:
    """`name` when it names an oracle policy (a table entry, ``"world"`` or
    ``"withholding"``), else a
    ValueError that lists them."""
    known = (*POLICIES, WORLD_POLICY, *REPLY_POLICY_OF)
    if name not in known:
        raise ValueError(f"unknown oracle policy {name!r}; choose one of {', '.join(known)}")
    return name
