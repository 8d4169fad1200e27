"""Second values in a justification: cutting a justification into clauses, the cues that
put a value forward as a correction or an alternative, and whether a value is stated of
another name (a fact of the justification, not an answer).

Pure: no Inspect imports. Nothing here raises on model text.
"""

from __future__ import annotations

import re

# protocols §3.8: a justification may follow the value, but text that puts forward a second
# candidate value of the kind (a self-correction, an alternative, a conditional, a
# probability, a list) makes the answer ambiguous. The readers cut the justification into
# clauses (`justification_clauses`) and ask, clause by clause, whether it offers another
# value of their kind; the rule and its examples are in docs/reading-output.md.

CLAUSE_BREAK = re.compile(
    r"[.!?](?=\s|$)|,(?!\d{3}(?!\d))|[;:()\[\]{}\n|]|\s[-\u2013\u2014]+\s|"
    r"\b(?:or|otherwise|else|then|if|unless|but|alternatively|instead|whereas|while)\b",
    re.IGNORECASE,
)
SECOND_VALUE_CUE = re.compile(
    r"\b(?:actually|correction|corrected|correcting|wait|sorry|oops|rather|instead|"
    r"alternatively|otherwise|else|or|either|maybe|perhaps|possibly|probably|unless|"
    r"scratch|revised|revise|rethink|mistake|meant|second\s+thought|i\s+mean|make\s+that)\b",
    re.IGNORECASE,
)
"""Words that put a value forward as a correction or an alternative."""
_CLAUSE_FILLER = re.compile(
    r"(?:\s+|[-*\u2022>#]+(?=\s)|(?:no\s+wait|wait|actually|correction|corrected|sorry|"
    r"oops|hmm+|well|rather|instead|i\s+mean|i\s+meant|make\s+(?:that|it)|scratch\s+that|"
    r"on\s+second\s+thought|so|hence|thus|therefore|then|maybe|perhaps|possibly|probably|"
    r"likely|also|and|either|alternatively|otherwise|else|or|revised|final(?:ly)?|"
    r"it\s+(?:is|must\s+be|should\s+be|would\s+be|could\s+be|might\s+be|may\s+be)|"
    r"it's|i\s+(?:think|guess|believe|would\s+say)|i'd\s+say|"
    r"(?:the\s+)?(?:correct\s+|right\s+|real\s+|true\s+|new\s+|updated\s+)?"
    r"answer(?:\s+(?:is|would\s+be|should\s+be|could\s+be|might\s+be|becomes))?"
    r"|the)\b)",
    re.IGNORECASE,
)
PROSE_OPENER = re.compile(
    r"^[ \t>*_`\-\u2022]*(?:\(|(?:because|since|as|given|due\s+to|thus|hence|therefore|so|which|"
    r"according|based|this|that|these|those|it|it's|its|the|there|here|note|i|i'm|i'd|i've|"
    r"my|we|our|but|though|although|however|also|actually|or|either|alternatively|"
    r"otherwise|else|maybe|perhaps|possibly|probably|instead|rather|wait|sorry|oops|"
    r"correction|on\s+second\s+thoughts?|scratch|never\s*mind|not\s+sure)\b)",
    re.IGNORECASE,
)
"""A line that opens as prose (a bracket, a justification, a pronoun, a self-correction
or alternative cue, a hedge), never as a value: under a vector's or a sequence's lines it
starts their justification (`infoseek.answers.answer_lines.split_prose`). ``then``,
``and`` and ``if`` are not here: a line opening with them may be a further step."""
PROBABILITY = re.compile(
    r"\d\s*%\s*(?:[\w-]+\s+){0,2}?(?:probability|probable|chance|likely|likelihood|sure|"
    r"certain|confiden\w*|odds)|\b(?:probability|chance|likelihood|odds|confidence)\b"
    r"\s*(?:of|is|:|=)?\s*(?:\d|one\b|half\b)"
    r"|(?:^|(?<=[\n(\[;,:]))[ \t]*\d{1,3}(?:\.\d+)?[ \t]*%[ \t]*(?=$|[\n)\].;,!])",
    re.IGNORECASE | re.MULTILINE,
)
"""A probability or confidence attached to an answer (``A1 with 50% probability``,
``90% sure``, ``confidence: 0.7``, a percentage standing alone in its clause or line:
``yes (70%)``, ``yes`` and on a later line ``70%``): the value is hedged."""


def strip_clause_filler(clause: str) -> str:
    """A clause without the answer leads, self-correction words and hedges it opens with
    (``actually, the answer is``, ``correction:``, ``or maybe``, a list bullet)."""
    while True:
        match = _CLAUSE_FILLER.match(clause)
        if match is None or not match.group(0):
            return clause.strip(" \t,:;.")
        clause = clause[match.end() :].lstrip(" \t,:;.")


def justification_clauses(tail: str) -> list[tuple[str, bool]]:
    """The clauses of a justification, each without its opening filler
    (`strip_clause_filler`), with whether a self-correction or alternative cue
    (:data:`SECOND_VALUE_CUE`) came at or before it. Clauses break at sentence ends,
    commas (not thousands separators), semicolons, colons, brackets, line breaks, dashes
    and the words ``or``, ``otherwise``, ``else``, ``then``, ``if``, ``unless``, ``but``,
    ``instead``."""
    pieces: list[tuple[str, bool]] = []
    cued = False
    start = 0
    for marker in [*CLAUSE_BREAK.finditer(tail), None]:
        end = marker.start() if marker is not None else len(tail)
        piece = tail[start:end]
        cued = cued or SECOND_VALUE_CUE.search(piece) is not None
        cleaned = strip_clause_filler(piece)
        if cleaned:
            pieces.append((cleaned, cued))
        if marker is None:
            break
        cued = cued or SECOND_VALUE_CUE.fullmatch(marker.group(0).strip()) is not None
        start = marker.end()
    return pieces


_GENERIC_SUBJECT = (
    "it|this|that|one|answer|result|value|attractor|state|recommendation|choice|option|"
    "total|sum|count|number|amount|final|correction|corrected|instead|rather|actually"
)
"""Words whose value is the answer itself (``the total is 277``, ``correction: 277``)."""
_ASSIGNMENT = re.compile(
    rf"\b(?!(?:{_GENERIC_SUBJECT})\b)[\w-]+\s*(?:=|≠|:)\s*(?:not\s+)?$", re.IGNORECASE)
_STATED_OF = re.compile(
    rf"\b(?!(?:{_GENERIC_SUBJECT})\b)[\w-]+\s+(?:is|was|equals|becomes|stays|remains)\s+"
    r"(?:not\s+)?$",
    re.IGNORECASE,
)


def bound_to_a_name(text: str, start: int) -> bool:
    """Whether the value written at ``text[start:]`` is stated of another name (``G3 =
    1``, ``B: 10``, ``I2 is 0``): a fact of the justification, not an answer."""
    before = text[max(0, start - 60) : start]
    return _ASSIGNMENT.search(before) is not None or _STATED_OF.search(before) is not None
