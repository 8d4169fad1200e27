"""The README stays short, every relative link in the README and docs/ leads somewhere,
and every "protocols §N.N" citation in the docs and the code names a section of
docs/protocols.md (no citation points at a document outside the repository)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PROTOCOLS = ROOT / "docs" / "protocols.md"
CODE_FOLDERS = ("infoseek", "builders", "oracles", "solvers", "scorers", "inspect_tasks",
                "benchmarks")
README_MAX_LINES = 320
SECTIONS = ("1", "2", "3", *(f"3.{n}" for n in range(1, 9)), "4", "5",
            *(f"5.{n}" for n in range(1, 7)), "6")
"""The numbered sections of docs/protocols.md; citations depend on this numbering."""

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CITATION = re.compile(r"protocols §(\d+(?:\.\d+)?)(?:[–-](\d+(?:\.\d+)?))?")
STALE_CITATION = re.compile(r"\bSPEC(?: section)? ?\d")
"""A citation of the specification that is not part of the repository."""
SECTION_HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ")


def prose(text: str) -> str:
    """Markdown without fenced code blocks and inline code, where links are not links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in prose(text).splitlines():
        match = re.match(r"#{1,6} (.*)", line)
        if match:
            name = slug(match.group(1))
            count = seen.get(name, 0)
            seen[name] = count + 1
            found.add(name if count == 0 else f"{name}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """The relative links of a Markdown page that lead to no file (or no heading)."""
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file, _, fragment = target.partition("#")
        destination = (page.parent / file) if file else page
        if not destination.is_file():
            broken.append(f"{target} (no such file)")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(
                destination.read_text(encoding="utf-8")):
            broken.append(f"{target} (no such heading)")
    return broken


def section_numbers(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if (m := SECTION_HEADING.match(line))]


def unknown_citations(text: str, sections: set[str]) -> list[str]:
    """The cited section numbers (both ends of a range) that are not in `sections`."""
    return [number for match in CITATION.finditer(text) for number in match.groups()
            if number is not None and number not in sections]


def markdown_pages() -> list[Path]:
    return [README, *sorted((ROOT / "docs").rglob("*.md"))]


def cited_files() -> list[Path]:
    code = [path for folder in CODE_FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))]
    return markdown_pages() + code


def test_the_readme_is_short():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines (at most {README_MAX_LINES}): move detail to docs/")


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path):
    assert broken_links(page) == []


def test_protocols_has_the_numbered_sections():
    assert section_numbers(PROTOCOLS.read_text(encoding="utf-8")) == list(SECTIONS)


def test_every_protocols_citation_names_a_section():
    sections = set(section_numbers(PROTOCOLS.read_text(encoding="utf-8")))
    unknown = {str(path.relative_to(ROOT)): found for path in cited_files()
               if (found := unknown_citations(path.read_text(encoding="utf-8"), sections))}
    assert unknown == {}


def test_no_citation_of_the_outside_specification_remains():
    stale = {str(path.relative_to(ROOT)): STALE_CITATION.findall(text)
             for path in cited_files()
             if STALE_CITATION.search(text := path.read_text(encoding="utf-8"))}
    assert stale == {}, "write these as protocols §N.N (docs/protocols.md)"


def test_the_checks_catch_what_they_look_for(tmp_path: Path):
    (tmp_path / "target.md").write_text("# Title\n\n## 3.8 Reading model output\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](target.md) [ok](target.md#38-reading-model-output) [web](https://x)\n"
                    "[gone](missing.md) [bad anchor](target.md#nowhere) `[code](nope.md)`\n"
                    "[self](#title)\n")
    assert broken_links(page) == ["missing.md (no such file)",
                                  "target.md#nowhere (no such heading)",
                                  "#title (no such heading)"]
    assert unknown_citations("protocols §3.8, protocols §3.4-3.9 and protocols §7",
                             {"3.8", "3.4"}) == ["3.9", "7"]
    assert STALE_CITATION.search("(SPEC 3.8)") and STALE_CITATION.search("SPEC section 1")
    assert not STALE_CITATION.search("WELL_SPECIFIED = 1")
    assert section_numbers("## 1. Model\n### 3.8 Reading\n## Notes\n") == ["1", "3.8"]
