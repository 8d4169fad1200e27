"""The planning domain's declaration (`infoseek.domains`): Blocks World with a partly
observed initial state, the set of optimal plans as the target (answer kind ``plan``, a
``sequence`` of ground actions), Planning-Q and multi-turn planning."""

from __future__ import annotations

from infoseek.builders.planning import planning_mt, planning_q
from infoseek.builders.planning.problems import DOMAIN_NAME
from infoseek.builders.planning.wording import WORDING
from infoseek.domains import Domain
from infoseek.engines.planning import plan_kind

DOMAIN = Domain(
    name=DOMAIN_NAME,
    answer_kind=plan_kind.NAME,
    wording=WORDING,
    builders=(planning_q.SPEC, planning_q.PLAN_SET_SPEC, planning_mt.SPEC),
    renderers={"seek": "infoseek.builders.planning.render:render"},
    source_formats={
        "questbench-planning":
            "infoseek.builders.planning.released.source_format:QUESTBENCH_PLANNING",
    },
)
