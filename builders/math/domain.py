"""The math domain's declaration (`infoseek.domains`): quantities defined by equations,
numeric goals, the GSME-Q-MT-Ext and GSME-Q-MT builders, the equation and word-problem
renderings, and the released MT-InfoSeek GSME files.

Only the world-backed oracle applies: every consistent-reply policy reduces to it on the
arithmetic engine, whose target values cannot be listed. Math problems have no forbidden
variables, so the renderers ignore ``forbid_alternatives``.
"""

from __future__ import annotations

from typing import Any

from infoseek.builders.math import gsme_mt, gsme_mt_ext
from infoseek.builders.math.gsm_text import render_word_problem
from infoseek.builders.math.gsme_text import askable_names, candidates_line, render_equations
from infoseek.builders.math.wording import WORDING
from infoseek.domains import Domain


def render_equations_prompt(record: dict[str, Any], *, forbid_alternatives: bool = False
                            ) -> str:
    """The problem as its equations and revealed values (the GSME-Q-MT view)."""
    return render_equations(record)


def render_words_prompt(record: dict[str, Any], *, forbid_alternatives: bool = False) -> str:
    """The problem as a word problem, then the quantities that may be asked (the word
    problem does not name them)."""
    text = render_word_problem(record)["text"]
    descriptions = record.get("descriptions") or {}
    names = [n for n in askable_names(record)
             if n not in record["observed"] and n != record["target"]]
    if not names:
        return text
    listed = ", ".join(f"{n} ({descriptions[n]})" if descriptions.get(n, n) != n else n
                       for n in names)
    return f"{text}\n\n{candidates_line(listed)}"


DOMAIN = Domain(
    name="math",
    answer_kind="number",
    wording=WORDING,
    builders=(gsme_mt_ext.SPEC, gsme_mt_ext.HARD_SPEC, gsme_mt.SPEC),
    renderers={"equations": render_equations_prompt, "words": render_words_prompt},
    source_formats={
        "mt-infoseek-gsme": "infoseek.builders.math.released.source_format:MT_INFOSEEK_GSME",
        "mt-infoseek-gsme-ext":
            "infoseek.builders.math.released.source_format:MT_INFOSEEK_GSME_EXT",
        "questbench-gsm": "infoseek.builders.math.released.questbench:QUESTBENCH_GSM",
    },
    oracles=("world",),
)
