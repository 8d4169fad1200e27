"""Reading the story templates from their data files, checking them, and hashing them.

The templates are TOML files in this package (``home.toml``, ``money.toml``, ...; any
``*.toml`` file here except ``collection.toml``), read with the standard library's
:mod:`tomllib`. A file is a list of ``[[template]]`` tables, each followed by its
``[[template.quantity]]`` tables in the order the quantities are drawn::

    [[template]]
    id = "sharing-candies"          # unique across all files
    theme = "sharing"               # one of the themes listed in collection.toml
    cast = ["giver"]                # optional: roles filled with distinct first names
    goal = "each"                   # a derived quantity
    question = "How many candies does each child get?"

    [[template.quantity]]           # a leaf whose value is a uniform integer
    name = "children"
    description = "children sharing the candies"
    between = [3, 8]
    sentence = "{giver} shares a bag of candies among {value} children."

    [[template.quantity]]           # a leaf drawn by a formula over fresh integers
    name = "candies"                # and the quantities known before it
    description = "candies in the bag"
    draw = "children * n"
    ranges = { n = [3, 12] }
    sentence = "The bag holds {value} candies."

    [[template.quantity]]           # a derived quantity
    name = "each"
    description = "candies each child gets"
    expr = "candies / children"
    sentence = "Each child gets an equal share: the candies divided by the children."

A quantity has exactly one of ``between``, ``draw`` (with ``ranges``) and ``expr``
(see :mod:`infoseek.builders.math.templates.core` for what they mean). ``collection.toml`` lists
the themes in collection order: the collection holds the templates theme by theme in
that order, and within a theme in file order (files by name). Template indices, and so
every seeded choice of a template, follow that order.

Every problem is reported as :class:`TemplateFileError`, naming the file, the template
and the field: ``money.toml: template 'shop-x': quantity 'total' expr: unknown quantity
'ghost'``. TOML syntax errors name the file, line and column.

:func:`templates_content_hash` is the SHA-256 of every data file's name and bytes, in
name order: the builders' dataset-cache keys take it, so editing a template file never
serves stale cached records.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from infoseek.builders.math.templates.core import Draw, Quantity, StoryTemplate, TemplateError

__all__ = [
    "COLLECTION_FILE",
    "TEMPLATE_DIR",
    "TemplateFileError",
    "load_templates",
    "template_data_files",
    "template_from_data",
    "templates_content_hash",
]

TEMPLATE_DIR = Path(__file__).resolve().parent
COLLECTION_FILE = "collection.toml"

_TEMPLATE_FIELDS = ("id", "theme", "cast", "goal", "question", "quantity")
_QUANTITY_FIELDS = ("name", "description", "sentence", "between", "draw", "ranges", "expr")


class TemplateFileError(TemplateError):
    """A template data file that cannot be read, or a template in it that is malformed."""


def template_data_files(folder: Path | None = None) -> list[Path]:
    """Every data file of the collection (``collection.toml`` and the template files), in
    the fixed order the hash reads them: by file name."""
    folder = TEMPLATE_DIR if folder is None else Path(folder)
    return sorted(folder.glob("*.toml"), key=lambda path: path.name)


def templates_content_hash(folder: Path | None = None) -> str:
    """SHA-256 (hex) of the data files' names and bytes, in :func:`template_data_files`
    order; it changes exactly when a file's bytes change (or a file is added, removed or
    renamed)."""
    digest = hashlib.sha256()
    for path in template_data_files(folder):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as error:
        raise TemplateFileError(f"{path.name}: not valid TOML: {error}") from None
    except OSError as error:
        raise TemplateFileError(f"{path.name}: cannot be read: {error}") from None


def _collection_themes(folder: Path) -> list[str]:
    path = folder / COLLECTION_FILE
    data = _read_toml(path)
    themes = data.get("themes")
    extra = sorted(set(data) - {"themes"})
    if extra:
        raise TemplateFileError(f"{path.name}: unknown fields {extra} (only 'themes')")
    if (not isinstance(themes, list) or not themes
            or not all(isinstance(t, str) and t for t in themes)):
        raise TemplateFileError(f"{path.name}: themes: must be a non-empty list of names")
    if len(set(themes)) != len(themes):
        raise TemplateFileError(f"{path.name}: themes: a theme is listed twice")
    return themes


def _integer_range(value: Any, fail, where: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise fail(where, f"must be a [low, high] pair of integers, got {value!r}")
    return value[0], value[1]


def _quantity(data: Any, index: int, fail) -> Quantity:
    if not isinstance(data, Mapping):
        raise fail(f"quantity #{index}", "must be a table")
    name = data.get("name")
    where = f"quantity {name!r}" if isinstance(name, str) else f"quantity #{index}"
    unknown = sorted(set(data) - set(_QUANTITY_FIELDS))
    if unknown:
        raise fail(where, f"unknown fields {unknown}")
    for key in ("name", "description", "sentence"):
        if key not in data:
            raise fail(f"{where} {key}", "is missing")
        if not isinstance(data[key], str):
            raise fail(f"{where} {key}", f"must be a string, got {data[key]!r}")
    kinds = [key for key in ("between", "draw", "expr") if key in data]
    if len(kinds) != 1:
        raise fail(where, f"needs exactly one of between, draw and expr, has {kinds}")
    if "ranges" in data and kinds != ["draw"]:
        raise fail(f"{where} ranges", "belongs with draw only")
    (kind,) = kinds
    if kind == "between":
        low, high = _integer_range(data["between"], fail, f"{where} between")
        return Quantity(name, data["description"], data["sentence"],
                        draw=Draw("n", (("n", low, high),)))
    if not isinstance(data[kind], str):
        raise fail(f"{where} {kind}", f"must be a string, got {data[kind]!r}")
    if kind == "expr":
        return Quantity(name, data["description"], data["sentence"], expr=data["expr"])
    ranges = data.get("ranges")
    if not isinstance(ranges, Mapping) or not ranges:
        raise fail(f"{where} ranges", "is missing (a table of name = [low, high])")
    draw_ranges = tuple((aux, *_integer_range(value, fail, f"{where} ranges {aux}"))
                        for aux, value in ranges.items())
    return Quantity(name, data["description"], data["sentence"],
                    draw=Draw(data["draw"], draw_ranges))


def template_from_data(data: Any, where: str = "<data>", index: int = 1) -> StoryTemplate:
    """One validated template from its TOML table (a dict); ``where`` names the file and
    ``index`` its position there, for the error messages."""
    template_id = data.get("id") if isinstance(data, Mapping) else None
    label = f"template {template_id!r}" if isinstance(template_id, str) and template_id \
        else f"template #{index}"

    def fail(field: str, problem: str) -> TemplateFileError:
        return TemplateFileError(f"{where}: {label}: {field}: {problem}")

    if not isinstance(data, Mapping):
        raise TemplateFileError(f"{where}: {label}: must be a table")
    unknown = sorted(set(data) - set(_TEMPLATE_FIELDS))
    if unknown:
        raise fail("fields", f"unknown fields {unknown}")
    for key in ("id", "theme", "goal", "question"):
        if key not in data:
            raise fail(key, "is missing")
        if not isinstance(data[key], str):
            raise fail(key, f"must be a string, got {data[key]!r}")
    cast = data.get("cast", [])
    if not isinstance(cast, list) or not all(isinstance(role, str) for role in cast):
        raise fail("cast", f"must be a list of role names, got {cast!r}")
    quantities = data.get("quantity")
    if not isinstance(quantities, list) or not quantities:
        raise fail("quantity", "is missing (one [[template.quantity]] table per quantity)")
    built = tuple(_quantity(q, i, fail) for i, q in enumerate(quantities, start=1))
    try:
        return StoryTemplate(id=data["id"], theme=data["theme"], quantities=built,
                             goal=data["goal"], question=data["question"], cast=tuple(cast))
    except TemplateError as error:
        raise TemplateFileError(f"{where}: {error}") from None


def load_templates(folder: Path | None = None) -> tuple[StoryTemplate, ...]:
    """Every template of the collection, validated, in collection order (see the module
    docstring); raises :class:`TemplateFileError` for the first problem found."""
    folder = TEMPLATE_DIR if folder is None else Path(folder)
    themes = _collection_themes(folder)
    found: list[StoryTemplate] = []
    origin: dict[str, str] = {}
    for path in template_data_files(folder):
        if path.name == COLLECTION_FILE:
            continue
        data = _read_toml(path)
        unknown = sorted(set(data) - {"template"})
        if unknown:
            raise TemplateFileError(f"{path.name}: unknown top-level fields {unknown} "
                                    "(a file holds [[template]] tables only)")
        tables = data.get("template")
        if not isinstance(tables, list) or not tables:
            raise TemplateFileError(f"{path.name}: holds no [[template]] table")
        for index, table in enumerate(tables, start=1):
            template = template_from_data(table, path.name, index)
            if template.id in origin:
                raise TemplateFileError(f"{path.name}: template {template.id!r}: id: "
                                        f"already used in {origin[template.id]}")
            if template.theme not in themes:
                raise TemplateFileError(f"{path.name}: template {template.id!r}: theme: "
                                        f"{template.theme!r} is not listed in "
                                        f"{COLLECTION_FILE}")
            origin[template.id] = path.name
            found.append(template)
    rank = {theme: position for position, theme in enumerate(themes)}
    return tuple(sorted(found, key=lambda t: rank[t.theme]))
