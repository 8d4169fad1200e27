"""The planning domain's declaration (`infoseek.domains`): Blocks World with a partly
observed initial state, the set of optimal plans as the target (answer kind ``plan``, a
``sequence`` of ground actions), Planning-Q and multi-turn planning."""

from __future__ import annotations

from infoseek.builders.planning import planning_mt, planning_q
from infoseek.builders.planning.problems import DOMAIN_NAME
from infoseek.builders.planning.wording import WORDING
from infoseek.domains import BuilderSpec, Domain
from infoseek.engines.planning import plan_kind

DOMAIN = Domain(
    name=DOMAIN_NAME,
    answer_kind=plan_kind.NAME,
    wording=WORDING,
    builders=(
        BuilderSpec(name=planning_q.BUILDER_NAME, build=planning_q.build_split,
                    version=planning_q.CACHE_VERSION, max_k=planning_q.MAX_K,
                    default_per_k=planning_q.DEFAULT_PER_K, max_per_k=20_000,
                    default_ks=planning_q.DEFAULT_KS),
        BuilderSpec(name=planning_mt.BUILDER_NAME, build=planning_mt.build_split,
                    version=planning_mt.CACHE_VERSION, max_k=planning_mt.MAX_K,
                    default_per_k=planning_mt.DEFAULT_PER_K, max_per_k=5_000,
                    default_ks=planning_mt.DEFAULT_KS),
    ),
    renderers={"seek": "infoseek.builders.planning.render:render"},
)
