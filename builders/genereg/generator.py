"""Seeded random networks with biologically shaped rules: every regulated gene follows
a nested canalizing function of 1-4 regulators.

A nested canalizing function reads its regulators in a fixed order: if the first has
its canalizing value the output is fixed, else the second decides the same way, and so
on; the last regulator decides alone. Written with AND / OR / NOT: a step whose output
is 1 is ``lit OR rest``, a step whose output is 0 is ``NOT lit AND rest``.
"""

from __future__ import annotations

import random

from infoseek.engines.boolnet.rules import Network, read_rules_text

MAX_IN_DEGREE = 4


def nested_canalizing(rng: random.Random, regulators: list[str]) -> str:
    """The text of a random nested canalizing function of `regulators` (in that order)."""
    def literal(name: str) -> str:
        return name if rng.random() < 0.5 else f"NOT {name}"

    *steps, last = regulators
    text = literal(last)
    for name in reversed(steps):
        lit = literal(name)
        if rng.random() < 0.5:
            text = f"{lit} OR ({text})"
        else:
            neg = lit[4:] if lit.startswith("NOT ") else f"NOT {lit}"
            text = f"{neg} AND ({text})"
    return text


def random_network_text(rng: random.Random, genes: int, inputs: int,
                        max_in_degree: int = MAX_IN_DEGREE) -> str:
    """Rule text of a random network with `genes` regulated genes ``G1..`` and `inputs`
    external inputs ``I1..`` (each input regulates at least one gene)."""
    regulated = [f"G{i}" for i in range(1, genes + 1)]
    external = [f"I{i}" for i in range(1, inputs + 1)]
    pool = regulated + external
    lines = []
    for index, gene in enumerate(regulated):
        degree = rng.randint(1, min(max_in_degree, len(pool)))
        regulators = rng.sample(pool, degree)
        if index < len(external) and external[index] not in regulators:
            # the first genes each read one input, so that every input is used
            regulators[rng.randrange(degree)] = external[index]
        lines.append(f"{gene} = {nested_canalizing(rng, regulators)}")
    return "\n".join(lines) + "\n"


def random_network(rng: random.Random, genes: int, inputs: int, name: str = "random",
                   max_in_degree: int = MAX_IN_DEGREE) -> Network:
    return read_rules_text(random_network_text(rng, genes, inputs, max_in_degree), name=name)
