"""The logic domain's declaration (`infoseek.domains`): Horn-clause problems about one
entity's attributes, yes/no goals, the Logic-Q-MT builder and the released MT-InfoSeek
and QuestBench logic files."""

from __future__ import annotations

from infoseek.builders.logic import logic_mt, logic_q
from infoseek.builders.logic.wording import WORDING
from infoseek.domains import Domain

DOMAIN = Domain(
    name="logic",
    answer_kind="boolean",
    wording=WORDING,
    builders=(logic_mt.SPEC, logic_mt.HARD_SPEC, logic_q.SPEC),
    renderers={"seek": "infoseek.builders.logic.logic_text:render_logic_problem"},
    source_formats={
        "mt-infoseek-logic": "infoseek.builders.logic.released.source_format:MT_INFOSEEK_LOGIC",
        "questbench-logic": "infoseek.builders.logic.released.source_format:QUESTBENCH_LOGIC",
    },
)
