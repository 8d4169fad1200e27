"""Word lists for the SimpleLogic-style logic domain.

Every proposition in a logic problem says that one person has (or lacks) one
character trait, e.g. "Alice is stubborn".  This module holds the trait words and
the person names the logic builder draws from, plus a seeded sampler.

The trait list is written for easy parsing of model replies:

* every word is a single lowercase token matching ``^[a-z]+$``;
* no word is a prefix of another word in the list (so a partial match never
  silently turns into a different attribute);
* no word is an English function word or a reply keyword ("not", "is", "yes",
  "true", "question", ...), so rendered rules and parsed answers stay unambiguous.
"""

from __future__ import annotations

import random

__all__ = ["ADJECTIVES", "NAMES", "RESERVED_WORDS", "pick_variables"]

# Words that must never be used as attribute names: they occur in rendered rules,
# in the reply format, or in common answer phrasings.
# fmt: off
RESERVED_WORDS: frozenset[str] = frozenset(
    {
        "a", "all", "also", "an", "and", "answer", "are", "be", "both", "but",
        "cannot", "do", "does", "false", "if", "in", "is", "it", "maybe", "no",
        "none", "not", "of", "on", "or", "question", "so", "sure", "that", "the",
        "then", "to", "true", "unknown", "was", "whether", "yes",
    }
)

ADJECTIVES: tuple[str, ...] = (
    "adventurous", "affable", "aggressive", "agreeable", "aloof", "ambitious",
    "amiable", "amused", "angry", "anxious", "arrogant", "articulate",
    "attentive", "awkward", "bashful", "bitter", "blunt", "boastful",
    "bold", "bored", "bossy", "brave", "brilliant", "busy",
    "calm", "candid", "careful", "careless", "caring", "cautious",
    "charming", "cheerful", "clever", "clumsy", "competitive", "confident",
    "confused", "considerate", "cooperative", "courageous", "courteous", "cowardly",
    "crafty", "cranky", "creative", "cruel", "curious", "cynical",
    "daring", "decisive", "defiant", "dependable", "determined", "devoted",
    "diligent", "diplomatic", "discreet", "dishonest", "disciplined", "dreamy",
    "eager", "earnest", "easygoing", "eccentric", "efficient", "elegant",
    "eloquent", "empathetic", "energetic", "enthusiastic", "envious", "fair",
    "faithful", "fearless", "fearful", "feisty", "fierce", "fickle",
    "fidgety", "finicky", "forgetful", "forgiving", "frank", "friendly",
    "frugal", "funny", "fussy", "generous", "gentle", "genuine",
    "gloomy", "graceful", "gracious", "greedy", "grouchy", "grumpy",
    "gullible", "happy", "hardworking", "harsh", "hasty", "helpful",
    "hesitant", "honest", "hopeful", "humble", "hungry", "idealistic",
    "imaginative", "impatient", "impulsive", "independent", "industrious", "innocent",
    "inquisitive", "insecure", "intelligent", "intense", "jealous", "jolly",
    "jovial", "joyful", "kind", "lazy", "lively", "lonely",
    "loud", "loyal", "lucky", "meek", "mellow", "messy",
    "methodical", "mischievous", "modest", "moody", "naive", "nervous",
    "nosy", "obedient", "observant", "optimistic", "orderly", "outgoing",
    "patient", "peaceful", "pessimistic", "playful", "polite", "pompous",
    "practical", "proud", "prudent", "punctual", "quiet", "quirky",
    "rational", "reckless", "relaxed", "reliable", "reserved", "resourceful",
    "respectful", "restless", "rude", "ruthless", "sarcastic", "secretive",
    "selfish", "sensible", "sensitive", "serious", "shy", "silly",
    "sincere", "skeptical", "sleepy", "sloppy", "sly", "smart",
    "sociable", "stern", "stingy", "strict", "stubborn", "sulky",
    "suspicious", "sympathetic", "talented", "talkative", "tense", "thoughtful",
    "thrifty", "timid", "tired", "tolerant", "tough", "trusting",
    "truthful", "upbeat", "vain", "versatile", "vigilant", "wary",
    "warm", "wise", "witty", "worried", "zany", "zealous",
)

NAMES: tuple[str, ...] = (
    "Alice", "Bruno", "Clara", "Daniel", "Elena", "Felix", "Greta", "Hugo",
    "Ingrid", "Jonas", "Kira", "Lucas", "Mara", "Nils", "Olga", "Pedro",
    "Rosa", "Stefan", "Tara", "Victor",
)
# fmt: on


def pick_variables(rng: random.Random, n: int) -> list[str]:
    """Return ``n`` distinct adjectives drawn with ``rng``.

    The result depends only on the state of ``rng`` (and on this module's fixed
    word order), so a ``random.Random(seed)`` gives the same list on every machine.
    """
    if n < 0:
        raise ValueError(f"cannot pick a negative number of variables: {n}")
    if n > len(ADJECTIVES):
        raise ValueError(f"asked for {n} variables but only {len(ADJECTIVES)} adjectives exist")
    return rng.sample(ADJECTIVES, n)
