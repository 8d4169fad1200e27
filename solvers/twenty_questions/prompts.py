"""What the Twenty Questions game says: to the guesser, the examiner, the evaluator and
the transfer reader (`infoseek.solvers.twenty_questions.solver`)."""

GUESSER_SYSTEM = (
    "Let us play Twenty Questions. I am thinking of a thing, X: {pool_text}. Find out what "
    "X is within {max_turns} turns.\n"
    "Each turn, write exactly one of:\n"
    "- one yes/no question about X, such as: Is X alive?\n"
    "- one final guess, written as: Guess: <your guess>\n"
    "A question \"Is X a <thing>?\" that names the thing wins if it is right. A final "
    "guess ends the game, right or wrong. Write one question or one guess per turn, with "
    "no explanation. I answer only Yes, No, Partially or Not applicable, or tell you that "
    "you guessed it. On turn {max_turns} you must guess."
)
POOL_TEXT = {"common": "a common animal, place, food or object",
             "thing": "an everyday object",
             "paper_common": "a common animal, place, food or object",
             "paper_thing": "an everyday thing: an object, animal, food, plant or person"}
OTHER_POOL_TEXT = "one thing of a list of everyday things"
"""What the guesser is told of a pool read from a name list the suite does not know."""


def pool_text(pool: str) -> str:
    """What the guesser (and the transfer reader) is told X is, for a pool name."""
    return POOL_TEXT.get(pool, OTHER_POOL_TEXT)
FINAL_TURN = ("This is turn {turn}, your last one: do not ask a question. Write your final "
              "guess now as: Guess: <your guess>")
TURN_NOTE = "Turn {turn} of {max_turns}."
INVALID_NOTE = {
    "empty": "Your reply was empty.",
    "too_long": "Your reply was too long to read.",
    "too_many": "Ask only one question per turn; none was answered.",
    "multiple_actions": "Write either one question or one guess, not both.",
    "no_action": "Write one yes/no question about X, or a guess as: Guess: <your guess>.",
    "ambiguous": "Guess exactly one thing, not several or a hedge.",
    "malformed": "Your guess could not be read as one thing.",
    "template": "Write your own question or guess, not a line of these instructions or a "
                "placeholder in brackets.",
}

EXAMINER_SYSTEM = (
    "We are playing Twenty Questions. You are the answerer; X is {target}. Answer each "
    "question truthfully as X. Reply with exactly one of: Yes / No / Partially / Not "
    "applicable, or, when the question or guess names X exactly, with: You guessed it. "
    "X is {target}. Add nothing else: no explanation, no hint."
)
EVALUATOR_SYSTEM = (
    "You label questions for a Twenty Questions benchmark. You get one yes/no question "
    "about X and a numbered list of candidates. For each candidate, give the truthful "
    "answer if X were exactly that candidate: Yes, No, or Pass (Pass when the question is "
    "ambiguous, only partly true, depends on context, or cannot be answered cleanly with "
    "Yes or No). Return exactly one line per candidate, in order, written as "
    "<index>. <Yes|No|Pass>, and nothing else."
)
EVALUATOR_USER = "Question: {question}\nCandidates:\n{candidates}"
EVALUATOR_RETRY = (
    "Your last reply could not be used: {problems}. Label every candidate again: exactly "
    "one line per candidate, in order, written as <index>. <Yes|No|Pass>, such as: 1. Yes")
"""Added to the evaluator's request when it retries a batch, so that the retry is not the
same request as the failed one (at temperature 0 it would get the same reply)."""
TRANSFER_SYSTEM = (
    "Here is a finished game of Twenty Questions about a hidden thing X ({pool_text}). "
    "Read the questions and answers and name X. Reply with one line: Guess: <your guess>"
)

TEMPLATE_LINES: tuple[str, ...] = tuple(
    line for text in (GUESSER_SYSTEM, FINAL_TURN, *INVALID_NOTE.values())
    for line in text.splitlines() if "{" not in line and len(line) > 20)
"""The prompt's own instruction lines (those that hold no filled-in field): a guesser
reply line copying one of them verbatim is no action (``template``). The example
question on its own (``Is X alive?``) is not one of them: it is a fair question."""
