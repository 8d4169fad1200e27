"""The Twenty Questions domain's declaration (`infoseek.domains`): the attribute-table
CSP (k-prediction and MSS identification, answer kind ``choice``) and the open game of
`infoseek.inspect_tasks.twenty_questions`."""

from __future__ import annotations

from infoseek.builders.twenty_questions import builder
from infoseek.builders.twenty_questions.wording import WORDING
from infoseek.domains import Domain

DOMAIN = Domain(
    name=builder.DOMAIN_NAME,
    answer_kind="choice",
    wording=WORDING,
    builders=(builder.SPEC,),
    renderers={"seek": "infoseek.builders.twenty_questions.render:render"},
)
