"""The withholding oracle (``-T oracle=withholding``): some askable variables cannot be
learned in an episode, and a question about one of them is answered "unknown".

Which variables are withheld (the *rule*, `withheld_variables`):

1. The askable set U is what the model may ask in the episode (forbidden variables and,
   when alternatives are forbidden, the alternative-only ones already left out).
2. One minimal sufficient set is *kept* whole: an alternative to the canonical MSS, drawn
   among the MSS family members that lie inside U, when there is one; else the canonical
   MSS itself.
3. When the kept set is an alternative, one canonical-MSS variable outside it is always
   withheld, so the canonical route is closed and the model must find another.
4. Further variables of U outside the kept set are withheld until `WITHHELD_SHARE` of U
   (rounded, at least one when any variable is left to withhold) is withheld.

The draw is seeded by the task seed and the problem id alone, never by the hidden target
value: both task instances of a problem lose the same variables, so an "unknown" reply
tells nothing about the target. Same seed, same withheld set.

What can still be learned is U minus the withheld set (the *learnable* set). Because a
whole k-MSS stays learnable, the target can always be made Known and the smallest
sufficient set inside the learnable set still has k members (none smaller exists in all
of U). `learnable_truth` computes that exactly with the engine's MSS search over the
learnable set (`infoseek.analysis.minimal_sufficient_sets`) rather than trusting the
record; the reference model `infoseek/optimal` plays its exact minimax strategy over the
learnable set, so it never meets a withheld variable.

Where the family has no member inside U other than the canonical MSS (one MSS, as in math
and gene regulation, or Logic with alternatives forbidden, its default), only variables
outside the canonical MSS are withheld: the unknown replies then fall on distractors and
alternative-route variables, and the canonical route stays open.

The "or none" variant (``-T oracle=withholding_all``, `withheld_every_route`) withholds a
set that leaves *no* minimal sufficient set learnable, so the only right final answer is
`infoseek.contract.UNDETERMINED`. It is a separate oracle name rather than a second
parameter because it changes what the oracle does and what the right answer is, exactly
as the choice of oracle does, and so every seek task accepts it (and refuses an unknown
name with its one line) without a new argument on each task.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.engine import Engine, is_listable

WITHHOLDING_POLICY = "withholding"
"""The oracle policy name (``-T oracle=withholding``): adversarial replies to what can be
learned (world-backed where the domain's values cannot be listed), "unknown" to the
withheld variables."""

WITHHOLDING_ALL_POLICY = "withholding_all"
"""The "or none" oracle (``-T oracle=withholding_all``): like `WITHHOLDING_POLICY`, but the
withheld set closes every route to the target (`withheld_every_route`)."""

WITHHELD = "unknown"
"""The recorded value (turn records, ``queries[].value``) of a question about a withheld
variable."""

WITHHELD_SHARE = 0.25
"""The share of the askable variables withheld in an episode (rule, step 4)."""

WITHHELD_REPLY = ("I do not know the value of the {noun} '{variable}'; it cannot be learned "
                  "in this problem.")
"""What the oracle says to a question about a withheld variable: ``{noun}`` is the domain's
word for a variable, ``{variable}`` the name asked. It names no value."""


@dataclass(frozen=True)
class Withholding:
    """The withheld set of one episode and the MSS kept whole for it."""

    withheld: tuple[str, ...]
    """The withheld variables, sorted."""
    kept: tuple[str, ...]
    """The minimal sufficient set left whole (an alternative when ``closes_canonical``)."""
    closes_canonical: bool
    """Whether a canonical-MSS variable is withheld (an alternative MSS was kept)."""

    def learnable(self, askable: Sequence[str]) -> list[str]:
        """The askable variables that can still be learned, in `askable`'s order."""
        hidden = set(self.withheld)
        return [name for name in askable if name not in hidden]

    def stored(self) -> dict[str, Any]:
        """The JSON form kept in the seek options of the sample store."""
        return {"withheld": list(self.withheld), "kept": list(self.kept),
                "closes_canonical": self.closes_canonical}


def withheld_variables(problem: dict[str, Any], askable: Sequence[str], seed: int,
                       share: float = WITHHELD_SHARE) -> Withholding:
    """The withheld set of `problem`'s episodes under task seed `seed` (module docstring).

    Raises ValueError when the record's canonical MSS is not inside `askable` (nothing
    could then be guaranteed learnable)."""
    if not 0.0 <= share < 1.0:
        raise ValueError(f"the withheld share must be at least 0 and below 1, got {share!r}")
    pool = sorted(dict.fromkeys(str(name) for name in askable))
    allowed = set(pool)
    family = [[str(name) for name in member] for member in problem.get("mss_family") or []]
    if not family or not set(family[0]) <= allowed:
        raise ValueError(f"problem {problem.get('id')!r}: its canonical MSS is not askable, so "
                         "the withholding oracle cannot keep a way to the answer open")
    canonical = family[0]
    rng = random.Random(f"withhold:{seed}:{problem.get('id')}")
    alternatives = [m for m in family[1:] if set(m) <= allowed and set(canonical) - set(m)]
    kept = rng.choice(alternatives) if alternatives else canonical
    withheld: list[str] = []
    if alternatives:
        withheld.append(rng.choice(sorted(set(canonical) - set(kept))))
    rest = [name for name in pool if name not in set(kept) and name not in withheld]
    wanted = max(1, round(share * len(pool))) if share > 0 else 0
    extra = max(0, min(len(rest), wanted - len(withheld)))
    withheld.extend(rng.sample(rest, extra))
    return Withholding(tuple(sorted(withheld)), tuple(kept), bool(alternatives))


@dataclass(frozen=True)
class LearnableTruth:
    """The exact ground truth over what can still be learned."""

    k: int | None
    """The size of the smallest sufficient set inside the learnable set (None: none)."""
    family: tuple[tuple[str, ...], ...]
    """Every sufficient set of that size inside the learnable set."""


def learnable_truth(engine: Engine, learnable: Sequence[str], max_k: int) -> LearnableTruth:
    """k and the MSS family of the problem with only `learnable` askable, exactly (the
    engine's own MSS search, up to `max_k` members). Engines whose target values cannot be
    listed use the same search (their `distinguishing_pair` fast path)."""
    if not is_listable(engine.domain(engine.target)) and engine.distinguishing_pair(
            (), {}) is NotImplemented:
        raise ValueError("this engine can neither list its values nor offer the "
                         "distinguishing-pair search; the learnable k cannot be computed")
    found = minimal_sufficient_sets(engine, list(learnable), max_k)
    return LearnableTruth(found.k, tuple(tuple(m) for m in found.family))


def episode_withholding(problem: dict[str, Any], askable: Sequence[str], seed: int,
                        engine: Engine) -> dict[str, Any]:
    """What the seek loop stores for one withholding episode (the seek options'
    ``withholding``): the withheld set, the MSS kept whole, whether the canonical route is
    closed, ``learnable_k``, the exact k over the learnable set, and
    ``learnable_family``, every sufficient set of that size inside it (the kept set
    first): the MSS family the query metrics are scored against. Raises ValueError
    when the learnable set is not sufficient within the record's k (a record whose MSS
    family is wrong): the rule's promise would not hold."""
    chosen = withheld_variables(problem, askable, seed)
    k = int(problem.get("k") or len(chosen.kept))
    truth = learnable_truth(engine, chosen.learnable(sorted(askable)), max(k, 1))
    if truth.k is None or truth.k > k:
        raise ValueError(f"problem {problem.get('id')!r}: after withholding "
                         f"{list(chosen.withheld)} no sufficient set of at most {k} remains; "
                         "its MSS family is not what the engine finds")
    family = [list(member) for member in truth.family]
    if len(chosen.kept) == truth.k:  # the kept set first: the route the rule left open
        family.sort(key=lambda member: set(member) != set(chosen.kept))
    return {**chosen.stored(), "learnable_k": truth.k, "learnable_family": family}


def withheld_every_route(problem: dict[str, Any], askable: Sequence[str], seed: int,
                         engine: Engine) -> Withholding:
    """A withheld set that leaves no sufficient set learnable: an inclusion-minimal hitting
    set of the MSS family inside `askable`, drawn from the task seed and the problem id.

    The askable variables are shuffled (seeded like `withheld_variables`) and made
    learnable one by one, each kept learnable only while the learnable set stays
    insufficient (the engine's exact `is_sufficient`); the rest are withheld. Since a
    superset of a sufficient set is sufficient, every withheld variable would, made
    learnable, complete a sufficient set: none can be given back. Raises ValueError when
    the target is Known before any question (nothing to withhold)."""
    pool = sorted(dict.fromkeys(str(name) for name in askable))
    if is_sufficient(engine, []):
        raise ValueError(f"problem {problem.get('id')!r}: the target is Known before any "
                         "question, so no route to it can be withheld")
    order = list(pool)
    random.Random(f"withhold-all:{seed}:{problem.get('id')}").shuffle(order)
    learnable: list[str] = []
    for name in order:
        if not is_sufficient(engine, [*learnable, name]):
            learnable.append(name)
    withheld = tuple(sorted(set(pool) - set(learnable)))
    canonical = {str(v) for v in (problem.get("mss_family") or [[]])[0]}
    return Withholding(withheld, (), bool(canonical & set(withheld)))


def episode_withholding_all(problem: dict[str, Any], askable: Sequence[str], seed: int,
                            engine: Engine) -> dict[str, Any]:
    """What the seek loop stores for one ``withholding_all`` episode: the fields of
    `episode_withholding` (``kept`` empty, ``learnable_k`` None, ``learnable_family``
    empty) and ``none_learnable: true``. Checks again, with the engine, that what is left
    is not sufficient (ValueError otherwise)."""
    chosen = withheld_every_route(problem, askable, seed, engine)
    if is_sufficient(engine, chosen.learnable(sorted(askable))):
        raise ValueError(f"problem {problem.get('id')!r}: after withholding "
                         f"{list(chosen.withheld)} the learnable set is still sufficient")
    return {**chosen.stored(), "learnable_k": None, "learnable_family": [],
            "none_learnable": True}
