"""The logic domain's declaration (`infoseek.domains`): Horn-clause problems about one
entity's attributes, yes/no goals, the Logic-Q-MT builder and the released MT-InfoSeek
and QuestBench logic files."""

from __future__ import annotations

from infoseek.builders.logic import logic_mt, logic_q
from infoseek.builders.logic.wording import WORDING
from infoseek.domains import BuilderSpec, Domain

DOMAIN = Domain(
    name="logic",
    answer_kind="boolean",
    wording=WORDING,
    builders=(
        BuilderSpec(name=logic_mt.BUILDER_NAME, build=logic_mt.build_split,
                    version=logic_mt.CACHE_VERSION, max_k=logic_mt.MAX_K,
                    default_per_k=logic_mt.DEFAULT_PER_K, max_per_k=10_000,
                    default_ks=logic_mt.DEFAULT_KS),
        BuilderSpec(name=logic_mt.HARD_BUILDER_NAME, build=logic_mt.build_hard_split,
                    version=logic_mt.HARD_CACHE_VERSION, max_k=logic_mt.HARD_MAX_K,
                    default_per_k=logic_mt.DEFAULT_PER_K, max_per_k=10_000,
                    default_ks=logic_mt.HARD_DEFAULT_KS),
        BuilderSpec(name=logic_q.BUILDER_NAME, build=logic_q.build_split,
                    version=logic_q.CACHE_VERSION, max_k=logic_q.MAX_K,
                    default_per_k=logic_q.DEFAULT_PER_K, max_per_k=10_000,
                    default_ks=logic_q.DEFAULT_KS),
    ),
    renderers={"seek": "infoseek.builders.logic.logic_text:render_logic_problem"},
    formats={
        "mt-infoseek-logic": "infoseek.builders.logic.released.format:MT_INFOSEEK_LOGIC",
        "questbench-logic": "infoseek.builders.logic.released.format:QUESTBENCH_LOGIC",
    },
)
