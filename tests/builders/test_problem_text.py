"""Issue 30, prompts (a): no rendered problem of any domain holds an action line or a
template line.

A problem text is read by the model, which may echo any of its lines; a line the seek
reader would take for an action (``Question: ...``, or an answer line by the one rule of
`infoseek.answers.answer_lines`) then becomes a question or an answer the model never
meant (genereg's ``Question: which attractor does the cell reach?`` was read as a
question about an unknown name). Every renderer of every registered domain, for
problems of every builder, with alternatives forbidden or not, is checked line by line.
On e3d0e63 genereg's goal line was such a line.
"""

from __future__ import annotations

import pytest

from infoseek.builders.datasets import domain_records
from infoseek.domains import domain_names, get_domain
from infoseek.solvers.seek.answer_parsing import copied_template_line
from infoseek.solvers.seek.prompts import template_lines
from infoseek.turn_text import action_line

CASES = [(name, spec.name) for name in domain_names() for spec in get_domain(name).builders]


@pytest.mark.parametrize("name, builder", CASES, ids=[b for _, b in CASES])
def test_no_problem_text_holds_an_action_or_template_line(name, builder) -> None:
    domain = get_domain(name)
    spec = next(s for s in domain.builders if s.name == builder)
    records = domain_records(builder, ks=list(spec.ks[:2]), per_k=2, seed=0)
    assert records and domain.renderers
    for variant in domain.renderers:
        render = domain.renderer(variant)
        for record in records:
            for forbid in (False, True):
                text = render(record, forbid_alternatives=forbid)
                lines = text.splitlines()
                actions = [line for line in lines if action_line(line) is not None]
                assert not actions, (builder, variant, actions)
                templates = template_lines(domain.wording, entity=record.get("entity", "Alice"),
                                           fmt="text")
                assert copied_template_line(lines, templates) is None, (builder, variant)
