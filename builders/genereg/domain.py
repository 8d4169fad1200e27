"""The gene-regulation domain's declaration (`infoseek.domains`): Boolean networks,
steady-state and dynamics problems, attractor ids or marker values as ``choice``
answers, the GeneReg-MT builder."""

from __future__ import annotations

from infoseek.builders.genereg import genereg_mt
from infoseek.builders.genereg.wording import WORDING
from infoseek.domains import Domain

DOMAIN = Domain(
    name="genereg",
    answer_kind="choice",
    wording=WORDING,
    builders=(genereg_mt.SPEC,),
    renderers={"seek": "infoseek.builders.genereg.genereg_text:render_genereg_problem"},
    source_formats={
        "mt-infoseek-genereg":
            "infoseek.builders.genereg.released.source_format:MT_INFOSEEK_GENEREG",
    },
)
