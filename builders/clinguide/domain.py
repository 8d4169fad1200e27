"""The ClinGuide-MT domain's declaration (`infoseek.domains`): guideline decision trees,
one recommendation to choose (answer kind ``choice``), closed-book and open-book
renderings."""

from __future__ import annotations

from infoseek.builders.clinguide import builder
from infoseek.builders.clinguide.wording import WORDING
from infoseek.domains import Domain

DOMAIN = Domain(
    name=builder.DOMAIN_NAME,
    answer_kind="choice",
    wording=WORDING,
    builders=(builder.SPEC,),
    renderers={"seek": "infoseek.builders.clinguide.render:render",
               "open": "infoseek.builders.clinguide.render:render_open_book"},
)
