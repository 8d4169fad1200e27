"""Reading Boolean update rules: one ``Gene = expression`` per line.

The grammar (the layout of the published rule files, e.g. the 122-network meta-analysis
MT-InfoSeek GeneReg draws on):

* A line is ``name = expression``; the first ``=`` splits it. ``#`` starts a comment
  (to the end of the line); blank lines are skipped.
* Operators: ``AND`` / ``OR`` / ``NOT`` as whole words (upper or lower case, or any
  mix), or the symbols ``&`` / ``&&``, ``|`` / ``||``, ``!`` / ``~``; parentheses group.
  ``NOT`` binds tightest, then ``AND``, then ``OR``.
* Constants: ``0``, ``1``, ``true``, ``false`` (any case).
* A **name** is any run of characters other than whitespace, parentheses, ``=``, ``#``
  and the operator symbols ``& | ! ~``, that holds at least one letter or digit, is not
  a keyword or a constant, and does not start with ``+``, ``-`` or the Unicode minus
  ``−``. So ``cAMP/PKA``, ``AUX/IAA``, ``p63-73``, ``DISC-FAS``, ``Ara+``, ``Ara-``,
  ``14_3_3s``, ``3oxo``, ``IκBalpha``, ``NF_κB`` and ``TGF−beta1`` are names, each read
  as written (case and Unicode kept: ``Ara+`` and ``Ara-`` are two genes).
* ``+`` and ``-`` are never operators: inside or at the end of a run they belong to the
  name (``B-C`` is one gene), a run of them alone (``B + C``) cannot be read, and a run
  that starts with one (``-B``) is refused, so a file written with ``+`` for OR or ``-``
  for NOT fails with a message instead of being read as other genes.

A name that only appears on right-hand sides is an external input: it keeps its value.
Anything else is a `RuleError` naming the file, the line and what is wrong.
`read_rules_dir` reads a directory of such files (one network per ``.txt`` file, named
by the file's stem). `expression_text` writes an expression back with ``AND`` / ``OR`` /
``NOT``, which this grammar reads back to the same tree for every name it accepts.

An expression is a small tree of tuples: ``("var", name)``, ``("const", bool)``,
``("not", e)``, ``("and", (e, ...))``, ``("or", (e, ...))``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Expr = tuple[Any, ...]

_SYMBOL = re.compile(r"&&|\|\||[&|!~()]")
_RUN = re.compile(r"[^\s()=#&|!~,;]+")
"""A run of characters that may be a name (the grammar in the module docstring)."""
_SIGNS = "+-\u2212"
_WORDS = {"and": "&", "or": "|", "not": "!"}
_CONSTANTS = {"0": False, "1": True, "false": False, "true": True}


def _has_name_char(text: str) -> bool:
    return any(char.isalnum() or char == "_" for char in text)


def is_gene_name(text: str) -> bool:
    """Whether `text` is a gene name of the rule grammar (module docstring)."""
    return (isinstance(text, str) and _RUN.fullmatch(text) is not None
            and _has_name_char(text) and text[0] not in _SIGNS
            and text.lower() not in _WORDS and text.lower() not in _CONSTANTS)


def _name_hint(text: str) -> str:
    if text and text[0] in _SIGNS:
        return " (a name cannot start with '+' or '-'; write NOT for a negation)"
    if text.lower() in _WORDS or text.lower() in _CONSTANTS:
        return " (it is a keyword or a constant)"
    return ""


class RuleError(ValueError):
    """A rule file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class Network:
    """A Boolean network: the genes with a rule (in file order), then the external
    inputs (in order of first appearance). ``genes`` is the state order: bit i of a state
    code is gene i."""

    name: str
    rules: tuple[tuple[str, Expr], ...]
    inputs: tuple[str, ...]

    @property
    def regulated(self) -> tuple[str, ...]:
        return tuple(gene for gene, _ in self.rules)

    @property
    def genes(self) -> tuple[str, ...]:
        return (*self.regulated, *self.inputs)

    def rule_lines(self) -> list[str]:
        """The rules written back in the canonical text form (``AND``/``OR``/``NOT``)."""
        return [f"{gene} = {expression_text(expr)}" for gene, expr in self.rules]

    def regulators(self, gene: str) -> tuple[str, ...]:
        expr = dict(self.rules).get(gene)
        return () if expr is None else tuple(dict.fromkeys(names_in(expr)))


def names_in(expr: Expr) -> list[str]:
    """Gene names in `expr`, in reading order, repeats kept."""
    if expr[0] == "var":
        return [expr[1]]
    if expr[0] == "const":
        return []
    if expr[0] == "not":
        return names_in(expr[1])
    return [name for part in expr[1] for name in names_in(part)]


def expression_text(expr: Expr, parent: str = "") -> str:
    """The canonical text of an expression (parentheses only where needed)."""
    kind = expr[0]
    if kind == "var":
        return expr[1]
    if kind == "const":
        return "1" if expr[1] else "0"
    if kind == "not":
        inner = expr[1]
        text = expression_text(inner)
        return f"NOT {text}" if inner[0] in ("var", "const", "not") else f"NOT ({text})"
    word = " AND " if kind == "and" else " OR "
    text = word.join(expression_text(part, kind) for part in expr[1])
    return f"({text})" if parent in ("and", "or", "not") and parent != kind else text


def evaluate(expr: Expr, values: Any) -> Any:
    """The value of `expr` with ``values[name]`` for each gene: Python bools, or numpy
    bool arrays (bit-parallel: one column per gene)."""
    kind = expr[0]
    if kind == "var":
        return values[expr[1]]
    if kind == "const":
        return expr[1]
    if kind == "not":
        inner = evaluate(expr[1], values)
        return (not inner) if isinstance(inner, bool) else ~inner
    parts = [evaluate(part, values) for part in expr[1]]
    result = parts[0]
    for part in parts[1:]:
        result = (result & part) if kind == "and" else (result | part)
    return result


class _Parser:
    def __init__(self, text: str, where: str) -> None:
        self.where = where
        self.tokens: list[str] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            if text[pos].isspace():
                pos += 1
                continue
            symbol = _SYMBOL.match(text, pos)
            if symbol is not None:
                token = symbol.group()
                self.tokens.append({"&&": "&", "||": "|", "~": "!"}.get(token, token))
                pos = symbol.end()
                continue
            run = _RUN.match(text, pos)
            if run is None or not _has_name_char(run.group()):
                rest = text[pos:].strip()
                hint = (" ('+' and '-' are not operators: write OR, AND, NOT)"
                        if rest[0] in _SIGNS else
                        " (a name cannot hold ',' or ';')" if rest[0] in ",;" else "")
                raise RuleError(f"{where}: cannot read {rest[:20]!r}{hint}")
            word = run.group()
            self.tokens.append(_WORDS.get(word.lower(), word))
            pos = run.end()
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise RuleError(f"{self.where}: the expression ends too early")
        self.pos += 1
        return token

    def parse(self) -> Expr:
        if not self.tokens:
            raise RuleError(f"{self.where}: empty expression after '='")
        expr = self.disjunction()
        if self.peek() is not None:
            raise RuleError(f"{self.where}: unexpected {self.peek()!r}")
        return expr

    def disjunction(self) -> Expr:
        parts = [self.conjunction()]
        while self.peek() == "|":
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else ("or", tuple(parts))

    def conjunction(self) -> Expr:
        parts = [self.negation()]
        while self.peek() == "&":
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else ("and", tuple(parts))

    def negation(self) -> Expr:
        if self.peek() == "!":
            self.take()
            return ("not", self.negation())
        return self.atom()

    def atom(self) -> Expr:
        token = self.take()
        if token == "(":
            expr = self.disjunction()
            if self.peek() != ")":
                raise RuleError(f"{self.where}: missing ')'")
            if self.take() != ")":
                raise RuleError(f"{self.where}: missing ')'")
            return expr
        if token.lower() in _CONSTANTS:
            return ("const", _CONSTANTS[token.lower()])
        if not is_gene_name(token):
            raise RuleError(f"{self.where}: {token!r} is not a gene name{_name_hint(token)}")
        return ("var", token)


def parse_expression(text: str, where: str = "expression") -> Expr:
    return _Parser(text, where).parse()


def read_rules_text(text: str, name: str = "network", where: str | None = None) -> Network:
    """A network from rule text; errors read ``<where>:<line>: <problem>``."""
    where = where or name
    rules: list[tuple[str, Expr]] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        at = f"{where}:{lineno}"
        gene, eq, body = line.partition("=")
        gene = gene.strip()
        if not eq:
            raise RuleError(f"{at}: expected 'Gene = expression'")
        if not is_gene_name(gene):
            raise RuleError(f"{at}: {gene!r} is not a gene name{_name_hint(gene)}")
        if gene in seen:
            raise RuleError(f"{at}: a second rule for {gene} (first on line {seen[gene]})")
        seen[gene] = lineno
        rules.append((gene, parse_expression(body, at)))
    if not rules:
        raise RuleError(f"{where}: no rules")
    regulated = set(seen)
    inputs = tuple(dict.fromkeys(n for _, expr in rules for n in names_in(expr)
                                 if n not in regulated))
    return Network(name=name, rules=tuple(rules), inputs=inputs)


def read_rules_file(path: str | Path) -> Network:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuleError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise RuleError(f"{path}: not UTF-8 text") from None
    return read_rules_text(text, name=path.stem, where=str(path))


def read_rules_dir(path: str | Path) -> dict[str, Network]:
    """Every ``*.txt`` rule file of a directory, by name (file name without ``.txt``),
    sorted by name."""
    path = Path(path)
    if not path.is_dir():
        raise RuleError(f"{path}: not a directory of rule files")
    files = sorted(path.glob("*.txt"))
    if not files:
        raise RuleError(f"{path}: no .txt rule files")
    return {f.stem: read_rules_file(f) for f in files}
