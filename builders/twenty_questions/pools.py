"""Twenty Questions pools as data: ``data/attributes.txt``, ``data/candidates.txt`` and
``data/pools.json``, read and checked here.

- ``attributes.txt``: one attribute per line, ``<id> | <question> | <phrases>``: the
  question the offline examiner answers from the table (``X`` is the hidden thing) and the
  comma-separated phrases that name the attribute in a free-text question. The line
  order is the column order of the table.
- ``candidates.txt``: one candidate per line, ``<name> | <group> | <aliases> | <cells>``:
  its group (``animal``, ``place``, ``food``, ``object``, ``thing``), comma-separated
  aliases, and one cell per attribute, ``y`` yes, ``n`` no or ``p`` pass (partly, it
  depends, or not cleanly yes or no). Every cell is filled.
- ``pools.json``: ``{pool: {"groups": [...], "targets": [names] or "all"}}``: a pool's
  candidates are every candidate of its groups (the declared pool every metric is
  computed over), its targets the hidden things of its games.

The check on load refuses (one line naming the file, the line and the field): a line
with the wrong number of fields, an unknown attribute column count or cell letter, an
unknown group, a repeated attribute id or candidate name, a name or alias that names two
candidates, a target outside its pool, and two candidates of one pool with the same row
(they could never be told apart). Lines starting with ``#`` and blank lines are skipped.
The files' content hash versions the records built from them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).with_name("data")
FILES = ("attributes.txt", "candidates.txt", "pools.json")
GROUPS = ("animal", "place", "food", "object", "thing")
CELLS = "ynp"
MIN_ATTRIBUTES = 60
POOL_NAMES = ("common", "thing")


class PoolFileError(ValueError):
    """A pool file that cannot be used; the message names the file, line and field."""


@dataclass(frozen=True)
class Attribute:
    id: str
    question: str
    phrases: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    name: str
    group: str
    aliases: tuple[str, ...]
    row: str

    @property
    def names(self) -> tuple[str, ...]:
        """The name and every alias."""
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class Pool:
    name: str
    attributes: tuple[Attribute, ...]
    candidates: tuple[Candidate, ...]
    targets: tuple[str, ...]

    def candidate(self, name: str) -> Candidate:
        return next(c for c in self.candidates if c.name == name)


def _fields(line: str, count: int, where: str) -> list[str]:
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != count:
        raise PoolFileError(f"{where}: expected {count} fields separated by '|', got "
                            f"{len(parts)}")
    return parts


def _lines(path: Path) -> list[tuple[int, str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PoolFileError(f"{path.name}: cannot be read ({exc})") from None
    return [(n, ln) for n, ln in enumerate(text.splitlines(), 1)
            if ln.strip() and not ln.lstrip().startswith("#")]


def read_attributes(path: Path) -> tuple[Attribute, ...]:
    found: list[Attribute] = []
    for number, line in _lines(path):
        where = f"{path.name}:{number}"
        aid, question, phrases = _fields(line, 3, where)
        if not re.fullmatch(r"[a-z][a-z0-9_]*", aid):
            raise PoolFileError(f"{where}: field 'id' {aid!r} must be lower_snake_case")
        if aid in {a.id for a in found}:
            raise PoolFileError(f"{where}: field 'id' {aid!r} repeats an attribute")
        if "X" not in question or not question.endswith("?"):
            raise PoolFileError(f"{where}: field 'question' must be a question about X")
        names = tuple(p.strip().lower() for p in phrases.split(",") if p.strip())
        if not names:
            raise PoolFileError(f"{where}: field 'phrases' is empty")
        found.append(Attribute(aid, question, names))
    if len(found) < MIN_ATTRIBUTES:
        raise PoolFileError(f"{path.name}: {len(found)} attributes; at least "
                            f"{MIN_ATTRIBUTES} are needed")
    return tuple(found)


def read_candidates(path: Path, width: int) -> tuple[Candidate, ...]:
    found: list[Candidate] = []
    owner: dict[str, str] = {}
    for number, line in _lines(path):
        where = f"{path.name}:{number}"
        name, group, aliases, row = _fields(line, 4, where)
        if not name:
            raise PoolFileError(f"{where}: field 'name' is empty")
        if group not in GROUPS:
            raise PoolFileError(f"{where}: field 'group' {group!r} is not one of "
                                f"{', '.join(GROUPS)}")
        if len(row) != width or set(row) - set(CELLS):
            raise PoolFileError(f"{where}: field 'cells' must hold {width} letters y/n/p "
                                f"(one per attribute); got {len(row)}")
        candidate = Candidate(name, group,
                              tuple(a.strip() for a in aliases.split(",") if a.strip()), row)
        for alias in candidate.names:
            key = alias.lower()
            if owner.get(key, name) != name:
                raise PoolFileError(f"{where}: {alias!r} already names {owner[key]!r}")
            owner[key] = name
        found.append(candidate)
    return tuple(found)


def read_pools(path: Path, candidates: tuple[Candidate, ...],
               attributes: tuple[Attribute, ...]) -> dict[str, Pool]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PoolFileError(f"{path.name}: not a readable JSON file ({exc})") from None
    if not isinstance(data, dict) or set(data) != set(POOL_NAMES):
        raise PoolFileError(f"{path.name}: expected an object with the pools "
                            f"{', '.join(POOL_NAMES)}")
    pools: dict[str, Pool] = {}
    for name in POOL_NAMES:
        spec = data[name]
        groups = spec.get("groups") if isinstance(spec, dict) else None
        if not isinstance(groups, list) or set(groups) - set(GROUPS) or not groups:
            raise PoolFileError(f"{path.name}: pool {name!r}: field 'groups' must list "
                                f"groups of {', '.join(GROUPS)}")
        members = tuple(c for c in candidates if c.group in groups)
        targets = spec.get("targets")
        if targets == "all":
            targets = [c.name for c in members]
        if not isinstance(targets, list) or not targets:
            raise PoolFileError(f"{path.name}: pool {name!r}: field 'targets' must be a "
                                "list of names or \"all\"")
        outside = [t for t in targets if t not in {c.name for c in members}]
        if outside:
            raise PoolFileError(f"{path.name}: pool {name!r}: targets {outside[:3]} are not "
                                "candidates of its groups")
        seen: dict[str, str] = {}
        for c in members:
            if c.row in seen:
                raise PoolFileError(f"candidates.txt: {c.name!r} and {seen[c.row]!r} (pool "
                                    f"{name!r}) have the same row: change a cell")
            seen[c.row] = c.name
        pools[name] = Pool(name, attributes, members, tuple(targets))
    return pools


def load_pools(data_dir: Path = DATA_DIR) -> dict[str, Pool]:
    """Every pool, checked (module docstring); raises `PoolFileError`."""
    attributes = read_attributes(data_dir / FILES[0])
    candidates = read_candidates(data_dir / FILES[1], len(attributes))
    return read_pools(data_dir / FILES[2], candidates, attributes)


@functools.lru_cache(maxsize=1)
def builtin_pools() -> dict[str, Pool]:
    """The shipped pools, read once per process."""
    return load_pools()


def get_pool(name: str) -> Pool:
    """One shipped pool by name (`ValueError` naming the pools otherwise)."""
    pools = builtin_pools()
    if name not in pools:
        raise ValueError(f"unknown Twenty Questions pool {name!r}; choose "
                         f"{' or '.join(POOL_NAMES)}")
    return pools[name]


def pools_content_hash(data_dir: Path = DATA_DIR) -> str:
    """The first 12 hex digits of the SHA-256 of the three files, in order."""
    digest = hashlib.sha256()
    for name in FILES:
        digest.update((data_dir / name).read_bytes())
    return digest.hexdigest()[:12]
