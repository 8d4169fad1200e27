"""Twenty Questions pools as data: ``data/attributes.txt``, ``data/candidates.txt`` and
``data/pools.json``, read and checked here.

- ``attributes.txt``: one attribute per line, ``<id> | <question> | <phrases>``: the
  question the offline examiner answers from the table (``X`` is the hidden thing) and the
  comma-separated phrases that name the attribute in a free-text question. The line
  order is the column order of the table.
- ``candidates.txt``: one candidate per line, ``<name> | <group> | <aliases> | <cells>``:
  its group (``animal``, ``place``, ``food``, ``object``, ``thing``: an object kept out
  of the Common pool, ``plant``, ``person``), comma-separated aliases, and one cell per
  attribute, ``y`` yes, ``n`` no or ``p`` pass (partly, it
  depends, or not cleanly yes or no). Every cell is filled.
- ``pools.json``: ``{pool: {"groups": [...], "include": [names], "targets": [names] or
  "all"}}``: a pool's candidates (the declared pool every metric is computed over) are
  every candidate of its groups and the candidates named in ``include`` (optional: table
  candidates of other groups the pool also holds, so a pool can mix kinds in chosen
  shares), in the order of ``candidates.txt``; its targets are the hidden things of its
  games. A pool may instead name its members, ``{"candidates": [names], "targets": ...}``
  (no ``groups`` or ``include``): rows added to the table later do not join it. The
  Common pool does so, so that it keeps its 388 candidates (the paper's Common pool has
  405) while the table also holds the rows of the paper's own lists.

The check on load refuses (one line naming the file, the line and the field): a line
with the wrong number of fields, an unknown attribute column count or cell letter, an
unknown group, a repeated attribute id or candidate name, a name or alias that names two
candidates, an ``include`` or ``candidates`` name that is no candidate or repeats, an
``include`` name already a member through its group, ``candidates`` beside ``groups`` or
``include``, a target outside its pool, and two candidates of one pool with the
same row (they could never be told apart). Lines starting with ``#`` and blank lines are skipped.
The files' content hash versions the records built from them.

**Name lists** (`list_pool`): a game can also run over any list of targets and candidates
given as files (``-T source=`` / ``-T pool=``), read by `read_name_list`: a ``.json`` file
holding a list of names (or an object of lists, read in order, as the paper's lists are
grouped), any other file one name per line (``#`` lines and blank lines skipped). Each
name takes the row of the table candidate of that name (`name_key`: case, punctuation
and articles do not matter; a target may also match through an alias, so ``Mt. Everest``
is ``Mount Everest``); a name the table does not hold is a candidate *without a row*
(its cells ``?``), which only an `evaluator` model can label. Repeated names are kept
once, in first order; a target missing from the candidate list joins it.
``paper_common`` and ``paper_thing`` are the released MT-InfoSeek lists
(``data/paper_lists.json``, `PAPER_POOLS`; provenance in its ``about`` field and
``data/paper_lists_provenance.txt``).

`constant_attributes` names the attributes with one label across a whole pool (they
tell no candidate apart there); `avoidable_constant_attributes` those of them a pool's
choice of candidates caused (all but the `place_attributes` of a pool without places),
which no built-in pool has (tested). `kind_counts` counts a pool's mix by `KINDS`.
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
GROUPS = ("animal", "place", "food", "object", "thing", "plant", "person")
CELLS = "ynp"
UNKNOWN = "?"
"""The cell of a candidate without a table row (a name list's candidate the table does not
hold): only an evaluator model labels it."""
UNLISTED = "unlisted"
"""The group of a candidate without a table row."""
PAPER_LISTS = "paper_lists.json"
PAPER_POOLS: dict[str, tuple[str, str]] = {
    "paper_common": ("common_targets", "common_candidate_pool"),
    "paper_thing": ("thing200_targets", "thing200_candidate_pool"),
}
"""The paper's lists by pool name: (targets key, candidates key) of ``data/paper_lists.json``."""
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
        where = f"{path.name}: pool {name!r}"
        if isinstance(spec, dict) and "candidates" in spec:
            if "groups" in spec or "include" in spec:
                raise PoolFileError(f"{where}: give either 'candidates' or 'groups' (with "
                                    "an optional 'include'), not both")
            named = _included(spec["candidates"], candidates, [], where, "candidates")
            members = tuple(c for c in candidates if c.name in named)
        else:
            groups = spec.get("groups") if isinstance(spec, dict) else None
            if not isinstance(groups, list) or set(groups) - set(GROUPS) or not groups:
                raise PoolFileError(f"{where}: field 'groups' must list groups of "
                                    f"{', '.join(GROUPS)}")
            included = (_included(spec["include"], candidates, groups, where, "include")
                        if "include" in spec else set())
            members = tuple(c for c in candidates if c.group in groups or c.name in included)
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


def _included(names: object, candidates: tuple[Candidate, ...], groups: list[str],
              where: str, field_name: str) -> set[str]:
    """The names of a pool's ``include`` (or ``candidates``) field, checked (module
    docstring)."""
    if not isinstance(names, list) or not names or not all(isinstance(n, str)
                                                          for n in names):
        raise PoolFileError(f"{where}: field '{field_name}' must be a list of candidate "
                            "names")
    group_of = {c.name: c.group for c in candidates}
    seen: set[str] = set()
    for listed in names:
        if listed not in group_of:
            raise PoolFileError(f"{where}: field '{field_name}': {listed!r} is no "
                                "candidate of candidates.txt")
        if group_of[listed] in groups:
            raise PoolFileError(f"{where}: field 'include': {listed!r} is already a member "
                                f"through its group {group_of[listed]!r}")
        if listed in seen:
            raise PoolFileError(f"{where}: field '{field_name}': {listed!r} is listed "
                                "twice")
        seen.add(listed)
    return seen


def load_pools(data_dir: Path = DATA_DIR) -> dict[str, Pool]:
    """Every pool, checked (module docstring); raises `PoolFileError`."""
    attributes = read_attributes(data_dir / FILES[0])
    candidates = read_candidates(data_dir / FILES[1], len(attributes))
    return read_pools(data_dir / FILES[2], candidates, attributes)


@functools.lru_cache(maxsize=1)
def builtin_pools() -> dict[str, Pool]:
    """The shipped pools, read once per process."""
    return load_pools()


@functools.lru_cache(maxsize=1)
def table() -> tuple[Candidate, ...]:
    """Every candidate row of the shipped table, whether or not a built-in pool holds it
    (name lists match against all of them), read once per process and checked with the
    pools."""
    builtin_pools()
    attributes = read_attributes(DATA_DIR / FILES[0])
    return read_candidates(DATA_DIR / FILES[1], len(attributes))


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


# ------------------------------------------------------------------------ name lists


@dataclass(frozen=True)
class ListPool(Pool):
    """A pool made from name lists (`list_pool`): where its names came from, and which
    candidates and targets the table holds no row for."""

    provenance: tuple[tuple[str, str], ...] = ()

    @property
    def missing(self) -> tuple[str, ...]:
        """The candidates without a table row, in pool order."""
        return tuple(c.name for c in self.candidates if UNKNOWN in c.row)

    @property
    def missing_targets(self) -> tuple[str, ...]:
        unknown = set(self.missing)
        return tuple(t for t in self.targets if t in unknown)


def _names_in(data: object, where: str) -> list[str]:
    if isinstance(data, dict):
        return [n for key, part in data.items() for n in _names_in(part, f"{where}[{key!r}]")]
    if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
        raise PoolFileError(f"{where}: expected a JSON list of names (or an object of such "
                            "lists)")
    return list(data)


def read_name_list(path: Path) -> list[str]:
    """The names of a list file (module docstring), stripped; `PoolFileError` naming the
    file (and line) when it cannot be read, holds no name, or a name is empty."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PoolFileError(f"{path}: cannot be read ({exc})") from None
    if path.suffix.lower() == ".json":
        try:
            listed = _names_in(json.loads(text), str(path))
        except json.JSONDecodeError as exc:
            raise PoolFileError(f"{path}: not a readable JSON file ({exc})") from None
        found = [(f"name {i}", n.strip()) for i, n in enumerate(listed, 1)]
    else:
        found = [(f"line {i}", ln.strip()) for i, ln in enumerate(text.splitlines(), 1)
                 if ln.strip() and not ln.lstrip().startswith("#")]
    if not found:
        raise PoolFileError(f"{path}: holds no name")
    bad = next(((where, n) for where, n in found if not name_key(n)), None)
    if bad is not None:
        raise PoolFileError(f"{path}: {bad[0]}: {bad[1]!r} is no name (no letter or digit)")
    return [n for _, n in found]


def paper_lists(data_dir: Path = DATA_DIR) -> dict[str, object]:
    """The released lists file (`PAPER_LISTS`), read as it is."""
    return json.loads((data_dir / PAPER_LISTS).read_text(encoding="utf-8"))


def _table_by(*, aliases: bool) -> dict[str, Candidate]:
    """Every table candidate by the `name_key` of its name (and of each alias)."""
    index: dict[str, Candidate] = {}
    for candidate in table():
        for alias in (candidate.names if aliases else (candidate.name,)):
            index.setdefault(name_key(alias), candidate)
    return index


def name_key(name: str) -> str:
    """The form in which list names and table names are compared: `option_key` (case and
    articles dropped), every run of other characters than letters and digits one space."""
    from infoseek.answers.choice import option_key

    return re.sub(r"[^a-z0-9]+", " ", option_key(name)).strip()


def list_pool(name: str, targets: list[str], candidates: list[str],
              provenance: dict[str, str] | None = None) -> ListPool:
    """The pool of a target list and a candidate list over the shipped table (module
    docstring). A listed name takes the row of the table candidate of that *name*, else
    of the candidate that holds it as an alias when the list does not also name that
    candidate (``Grapes`` takes ``grape``'s row; a list naming ``Tarantula`` and
    ``Spider`` means two things, so Tarantula stays without a row); it keeps the table's
    aliases that name no other listed candidate. A target matches a listed candidate by
    name, else through a table alias
    (``Mt. Everest`` is the listed ``Mount Everest``), else joins the candidates. Names
    are compared by `name_key`."""
    shipped = builtin_pools()
    attributes = next(iter(shipped.values())).attributes
    by_name = _table_by(aliases=False)
    by_alias = _table_by(aliases=True)
    found: dict[str, Candidate] = {}
    listed_keys = {name_key(n) for n in candidates}
    kin_taken: set[str] = set()

    def kin(listed: str, key: str) -> Candidate | None:
        """The row of the candidate that holds `listed` as an alias, under the listed name,
        when the list names no such candidate and no other listed name took it."""
        via = by_alias.get(key)
        if via is None or name_key(via.name) in listed_keys or via.name in kin_taken:
            return None
        kin_taken.add(via.name)
        return Candidate(listed, via.group, via.aliases, via.row)

    def add(listed: str) -> str:
        key = name_key(listed)
        if not key:
            raise PoolFileError(f"pool {name!r}: the name {listed!r} has no letters")
        if key not in found:
            row = by_name.get(key) or kin(listed, key)
            found[key] = (row if row is not None else
                          Candidate(listed, UNLISTED, (), UNKNOWN * len(attributes)))
        return found[key].name

    for listed in candidates:
        add(listed)

    def target(listed: str) -> str:
        key = name_key(listed)
        via = by_alias.get(key)
        if key not in found and via is not None and name_key(via.name) in found:
            return via.name
        return add(listed)

    chosen = list(dict.fromkeys(target(t) for t in targets))
    keys = set(found)
    members = tuple(
        Candidate(c.name, c.group,
                  tuple(a for a in c.aliases if name_key(a) not in keys), c.row)
        for c in found.values())
    return ListPool(name, attributes, members, tuple(chosen), tuple((provenance or {}).items()))


def paper_pool(name: str, targets: list[str] | None = None,
               provenance: dict[str, str] | None = None) -> ListPool:
    """A pool of the paper's lists (`PAPER_POOLS`), with `targets` in place of its own
    when given."""
    target_key, pool_key = PAPER_POOLS[name]
    lists = paper_lists()
    if targets is None:
        targets = _names_in(lists[target_key], PAPER_LISTS)
    return list_pool(name, targets,
                     _names_in(lists[pool_key], PAPER_LISTS),
                     {"lists": PAPER_LISTS, "lists_sha256": file_hash(DATA_DIR / PAPER_LISTS),
                      **(provenance or {})})


def file_hash(path: Path) -> str:
    """The first 12 hex digits of the SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def missing_rows_line(pool: ListPool, shown: int = 5) -> str:
    """The candidates without a table row, in one phrase: the first few and the count."""
    missing = pool.missing
    listed = ", ".join(missing[:shown]) + (", ..." if len(missing) > shown else "")
    return f"{len(missing)} of {len(pool.candidates)} candidates have no table row ({listed})"


KINDS: dict[str, str] = {"object": "object", "thing": "object", "animal": "animal",
                         "food": "food", "plant": "plant", "person": "person",
                         "place": "place"}
"""The kind each group stands for when a pool's mix is counted: ``object`` and ``thing``
are both objects (``thing`` only keeps objects out of the Common pool)."""


def kind_counts(pool: Pool) -> dict[str, int]:
    """How many candidates of `pool` (those with a table row) are of each kind (`KINDS`)."""
    counts: dict[str, int] = {}
    for candidate in pool.candidates:
        if candidate.group != UNLISTED:
            kind = KINDS[candidate.group]
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def place_attributes() -> list[str]:
    """The attributes that only places are (or may be) in the shipped table: every other
    candidate is labelled ``n`` (``city``, ``capital``, ...). A pool without places has one
    label for each, by what it holds, as THING200 has."""
    rows = [(c.group, c.row) for c in table()]
    attributes = next(iter(builtin_pools().values())).attributes
    return [a.id for i, a in enumerate(attributes)
            if all(row[i] == "n" for group, row in rows if KINDS[group] != "place")]


def avoidable_constant_attributes(pool: Pool) -> list[str]:
    """`constant_attributes` of `pool`, less the `place_attributes` when it holds no place:
    the one-label attributes its choice of candidates caused (a pool of objects only
    labels ``animal`` no for all), which no built-in pool may have (tested)."""
    exempt = set() if "place" in kind_counts(pool) else set(place_attributes())
    return [a for a in constant_attributes(pool) if a not in exempt]


def constant_attributes(pool: Pool) -> list[str]:
    """The attributes with one label for every candidate of `pool` that has a row: no
    answer to them tells two of its candidates apart (candidates without a row are left
    out; an empty list when fewer than two have one)."""
    rows = [c.row for c in pool.candidates if UNKNOWN not in c.row]
    if len(rows) < 2:
        return []
    return [a.id for i, a in enumerate(pool.attributes) if len({r[i] for r in rows}) == 1]
