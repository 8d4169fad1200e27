"""The gene-regulation domain's declaration (`infoseek.domains`): Boolean networks,
steady-state and dynamics problems, attractor ids or marker values as ``choice``
answers, the GeneReg-MT builder."""

from __future__ import annotations

from infoseek.builders.genereg import genereg_mt
from infoseek.builders.genereg.wording import WORDING
from infoseek.domains import BuilderSpec, Domain

DOMAIN = Domain(
    name="genereg",
    answer_kind="choice",
    wording=WORDING,
    builders=(
        BuilderSpec(name=genereg_mt.BUILDER_NAME, build=genereg_mt.build_split,
                    version=genereg_mt.CACHE_VERSION, max_k=genereg_mt.MAX_K,
                    default_per_k=genereg_mt.DEFAULT_PER_K, max_per_k=2_000),
    ),
    renderers={"seek": "infoseek.builders.genereg.genereg_text:render_genereg_problem"},
    formats={
        "mt-infoseek-genereg": "infoseek.builders.genereg.released.format:MT_INFOSEEK_GENEREG",
    },
)
