"""GSME-Q-MT style grade-school story templates: the collection and its public API.

Each template is a small equation system written as a story (see
:mod:`builders.math.templates.core` for the data model and the exact evaluator):
quantities with a description each, equations that define the derived quantities,
a goal, a seeded rule per leaf that keeps every division exact, and one sentence per
leaf value, per equation and for the question (for the word-problem renderer).

    >>> import random
    >>> record = instantiate(template_by_id("shop-notebooks-and-pens"), random.Random(0))
    >>> record["answer"] == record["derived"][record["goal"]]
    True

The templates are grouped by theme in ``gsme_templates_money``, ``gsme_templates_motion``,
``gsme_templates_home``, ``gsme_templates_outdoors`` and ``gsme_templates_work``; the
restricted evaluator lives in ``gsme_templates_expr``; this module collects them.
"""

from __future__ import annotations

from builders.math.templates.core import (
    CAST_NAMES,
    TEMPLATES_VERSION,
    Draw,
    ExpressionError,
    Quantity,
    StoryTemplate,
    TemplateError,
    evaluate_equations,
    evaluate_expression,
    expression_names,
    instantiate,
    parse_expression,
    template_depth,
    template_parents,
)
from builders.math.templates.home import AGE_TEMPLATES, RECIPE_TEMPLATES, SHARING_TEMPLATES
from builders.math.templates.money import (
    SAVINGS_TEMPLATES,
    SCHOOL_SUPPLY_TEMPLATES,
    SHOPPING_TEMPLATES,
)
from builders.math.templates.motion import (
    FUEL_TEMPLATES,
    RATE_TEMPLATES,
    TIME_TEMPLATES,
    TRAVEL_TEMPLATES,
)
from builders.math.templates.outdoors import ANIMAL_TEMPLATES, GARDEN_TEMPLATES
from builders.math.templates.work import GEOMETRY_TEMPLATES, SPORTS_TEMPLATES, WORK_TEMPLATES

__all__ = [
    "CAST_NAMES",
    "TEMPLATES",
    "TEMPLATES_VERSION",
    "THEMES",
    "Draw",
    "ExpressionError",
    "Quantity",
    "StoryTemplate",
    "TemplateError",
    "evaluate_equations",
    "evaluate_expression",
    "expression_names",
    "instantiate",
    "parse_expression",
    "template_by_id",
    "template_depth",
    "template_parents",
    "templates_by_theme",
]

TEMPLATES: tuple[StoryTemplate, ...] = (
    *SHOPPING_TEMPLATES,
    *SCHOOL_SUPPLY_TEMPLATES,
    *SAVINGS_TEMPLATES,
    *RATE_TEMPLATES,
    *TRAVEL_TEMPLATES,
    *FUEL_TEMPLATES,
    *TIME_TEMPLATES,
    *AGE_TEMPLATES,
    *RECIPE_TEMPLATES,
    *GARDEN_TEMPLATES,
    *SHARING_TEMPLATES,
    *ANIMAL_TEMPLATES,
    *WORK_TEMPLATES,
    *GEOMETRY_TEMPLATES,
    *SPORTS_TEMPLATES,
)

_BY_ID: dict[str, StoryTemplate] = {t.id: t for t in TEMPLATES}
if len(_BY_ID) != len(TEMPLATES):
    raise TemplateError("template ids repeat")

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
