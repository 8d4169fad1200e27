"""GSME-Q-MT style grade-school story templates: the collection and its public API.

Each template is a small equation system written as a story (see
:mod:`infoseek.builders.math.templates.core` for the data model and the exact evaluator):
quantities with a description each, equations that define the derived quantities,
a goal, a seeded rule per leaf that keeps every division exact, and one sentence per
leaf value, per equation and for the question (for the word-problem renderer).

    >>> import random
    >>> record = instantiate(template_by_id("shop-notebooks-and-pens"), random.Random(0))
    >>> record["answer"] == record["derived"][record["goal"]]
    True

The templates are data: TOML files in this package, one per group of themes
(``money.toml``, ``motion.toml``, ``home.toml``, ``outdoors.toml``, ``work.toml``) plus
``collection.toml`` for the theme order, read and validated on import by
:mod:`infoseek.builders.math.templates.loader`. The restricted expression language is in
:mod:`infoseek.builders.math.templates.expr`.

Versions: the builders that read these files (`gsme_mt`, `incomplete_math`) name
:data:`TEMPLATES_CONTENT_HASH`, the SHA-256 of the data files, as their data hash
(`infoseek.domains.BuilderSpec.data_hash`), so any edit to a template file gives their
dataset cache new keys, and their tasks a new data version, without anyone bumping
anything. Records carry only the builder version; bump it when a template edit is meant
to change the records a seed gives.
"""

from __future__ import annotations

from infoseek.builders.math.templates.core import (
    CAST_NAMES,
    Draw,
    ExpressionError,
    Quantity,
    StoryTemplate,
    TemplateError,
    evaluate_equations,
    evaluate_expression,
    expression_names,
    instantiate,
    parse_template_expression,
    template_depth,
    template_parents,
)
from infoseek.builders.math.templates.loader import (
    TemplateFileError,
    load_templates,
    templates_content_hash,
)

__all__ = [
    "CAST_NAMES",
    "TEMPLATES",
    "TEMPLATES_CONTENT_HASH",
    "THEMES",
    "Draw",
    "ExpressionError",
    "Quantity",
    "StoryTemplate",
    "TemplateError",
    "TemplateFileError",
    "evaluate_equations",
    "evaluate_expression",
    "expression_names",
    "instantiate",
    "load_templates",
    "parse_template_expression",
    "template_by_id",
    "template_depth",
    "template_parents",
    "templates_by_theme",
    "templates_content_hash",
]

TEMPLATES: tuple[StoryTemplate, ...] = load_templates()

TEMPLATES_CONTENT_HASH: str = templates_content_hash()
"""SHA-256 (hex) of the template data files, in file-name order."""

_BY_ID: dict[str, StoryTemplate] = {t.id: t for t in TEMPLATES}

THEMES: tuple[str, ...] = tuple(dict.fromkeys(t.theme for t in TEMPLATES))


def template_by_id(template_id: str) -> StoryTemplate:
    """The template with this id; raises ``KeyError`` for an unknown id."""
    try:
        return _BY_ID[template_id]
    except KeyError:
        raise KeyError(f"unknown GSME story template {template_id!r}") from None


def templates_by_theme(theme: str) -> tuple[StoryTemplate, ...]:
    """The templates of one theme, in collection order (empty for an unknown theme)."""
    return tuple(t for t in TEMPLATES if t.theme == theme)
