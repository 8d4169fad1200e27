"""The single-turn fuzz catalogue (issue 18): kinds of model reply to the three
single-turn protocols, what each must be read as, and the scripted model that plays
them (`tests.fuzz.test_fuzz_single_turn` runs them through every single-turn task family).

A kind is a function of the sample it plays (`Ctx`: the right and a wrong option, the
right value, another value, the entity and target) that returns the reply text, and
an expectation:

- ``refuse``: never credited, and invalid (``reasons``, when given, are the reasons
  protocols §3.8 calls for: two answer lines are ``multiple_actions``, a self-correction or
  a second candidate is ``ambiguous``);
- ``credit``: one value with a justification or with reasoning before the answer
  line: valid and correct on every sample (the kind writes the sample's right answer);
- ``not_sure`` (detection): one "Not sure", maybe with an explanation: valid, read as
  "Not sure" (so correct exactly on the underspecified samples).

``issue`` names the class of issue 18 a kind belongs to (2: the last ``Answer:`` line
won or a self-correction was credited; 6: a single value was refused), "30" for issue
30 (the whole reply read, a count after a pick, an option named in a justification,
the one answer-line rule), or "control" for kinds the reader already handled and must
keep handling.

`SingleTurnScript` (the ``infoseek_fuzz_st/script`` model) reads the problem id from the
sample store, as the reference models do, and plays the sample's next kind: with
``epochs`` equal to the number of kinds, every sample plays every kind once. The test
finds the kind of each completion again with `kind_of`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from inspect_ai.util import store

from infoseek import contract
from infoseek.single_turn import NO_QUESTION, NOT_SURE
from infoseek.solvers.dataset import value_label
from infoseek.solvers.single_turn.reading import option_text
from infoseek.stored_forms import problem_from_store, sample_problem
from tests.support.common import text_output

PROVIDER = "infoseek_fuzz_st"
SCRIPT_MODEL = f"{PROVIDER}/script"
SELECTION, DETECTION, WELL_SPECIFIED = contract.SINGLE_TURN_PROTOCOLS
VALUES = (DETECTION, WELL_SPECIFIED)
REFUSE, CREDIT, SAID_NOT_SURE = "refuse", "credit", "not_sure"
MULTIPLE = ("multiple_actions",)
AMBIGUOUS = ("ambiguous",)
FAR = "x" * 100_000  # 100 KB between two answer lines


@dataclass(frozen=True)
class Ctx:
    """What a kind may know about the sample it plays (the test knows the answer)."""

    protocol: str
    variant: str
    logic: bool  # yes/no answers (else numbers)
    entity: str
    target: str
    good: int = 0  # question selection: the right option's number
    bad: int = 0  # a wrong option's number (never "No questions needed")
    good_question: str = ""
    bad_question: str = ""
    value: str = ""  # a value of the answer kind: the right one on well-specified samples
    other: str = ""  # another value
    count: int = 0  # question selection: how many options are listed

    @property
    def right(self) -> str:
        """The right answer's text: "Not sure" on an underspecified sample."""
        return NOT_SURE if self.variant == "underspecified" else self.value

    def statement(self, value: str) -> str:
        """`value` as a sentence (``Rosa is not mellow``, ``season_goals = 43``)."""
        if not self.logic:
            return f"{self.target} = {value}"
        return f"{self.entity} is {'' if value == 'yes' else 'not '}{self.target}"

    def label(self, avoid: int) -> int:
        """A small number other than option `avoid` (for ``rule 2`` and ``1 fact``)."""
        return 2 if avoid != 2 else 3


@dataclass(frozen=True)
class Kind:
    name: str
    issue: str
    protocols: tuple[str, ...]
    expect: str
    make: Callable[[Ctx], str]
    reasons: tuple[str, ...] | None = None


def _sel(name: str, issue: str, expect: str, make: Callable[[Ctx], str],
         reasons: tuple[str, ...] | None = None) -> Kind:
    return Kind(name, issue, (SELECTION,), expect, make, reasons)


def _val(name: str, issue: str, expect: str, make: Callable[[Ctx], str],
         reasons: tuple[str, ...] | None = None) -> Kind:
    return Kind(name, issue, VALUES, expect, make, reasons)


def _det(name: str, issue: str, expect: str, make: Callable[[Ctx], str],
         reasons: tuple[str, ...] | None = None) -> Kind:
    return Kind(name, issue, (DETECTION,), expect, make, reasons)


def _ask_or_not(c: Ctx) -> str:
    return c.good_question.rstrip("?") + " or not?"


def _whether(c: Ctx) -> str:
    return (f"whether {c.entity} is {c.target}" if c.logic
            else f"what {c.target} is")


def _chain(c: Ctx) -> str:
    """A worked chain ending in the right value (a justification of facts)."""
    if c.logic or not c.right.lstrip("-").isdigit():
        return f"{c.right}, because rule 2 and rule 3 then give it"
    value = int(c.right)
    return f"{value}, since {value - 3} + 3 = {value}"


KINDS: tuple[Kind, ...] = (
    # ---- issue 18 class 2, question selection: two answer lines, self-corrections
    _sel("two_lines_right_last", "2", REFUSE, lambda c: f"Answer: {c.bad}\nAnswer: {c.good}",
         MULTIPLE),
    _sel("two_lines_right_first", "2", REFUSE,
         lambda c: f"Answer: {c.good}\nAnswer: {c.bad}", MULTIPLE),
    _sel("two_lines_100kb_apart", "2", REFUSE,
         lambda c: f"Answer: {c.bad}\n{FAR}\nAnswer: {c.good}", MULTIPLE),
    _sel("same_pick_on_two_lines", "2", REFUSE,
         lambda c: f"Answer: {c.good}\nAnswer: {c.good}", MULTIPLE),
    _sel("answer_then_final_answer", "2", REFUSE,
         lambda c: f"Answer: {c.bad}\n**Final answer:** {c.good}", MULTIPLE),
    _sel("second_answer_inside_answer", "2", REFUSE,
         lambda c: f"Answer: {c.good} (final answer: {c.good_question})", MULTIPLE),
    _sel("cot_then_two_answer_lines", "2", REFUSE,
         lambda c: f"Options {c.bad} and {c.good} both look close.\nAnswer: {c.bad}\n"
                   f"Answer: {c.good}", MULTIPLE),
    _sel("actually_vague", "2", REFUSE,
         lambda c: f"Answer: {c.good}. Actually, the option just before it.", AMBIGUOUS),
    _sel("correction_vague", "2", REFUSE,
         lambda c: f"Answer: {c.good}; correction: the last listed option", AMBIGUOUS),
    _sel("with_probability", "2", REFUSE,
         lambda c: f"Answer: {c.good} with 80% probability", AMBIGUOUS),
    _sel("otherwise_opening", "2", REFUSE,
         lambda c: f"Answer: {c.good}; otherwise none at all", AMBIGUOUS),
    _sel("or_in_brackets", "2", REFUSE,
         lambda c: f"Answer: {c.good_question} (or the one after it)", AMBIGUOUS),
    _sel("wait_reconsider", "2", REFUSE,
         lambda c: f"Answer: {c.good}. Wait, let me reconsider that.", AMBIGUOUS),
    _sel("just_a_guess", "2", REFUSE, lambda c: f"Answer: {c.good}, just a guess",
         AMBIGUOUS),
    # ---- issue 18 class 6, question selection: one pick, refused before
    _sel("value_not_given", "6", CREDIT,
         lambda c: f"Answer: {c.good} (its value is not given)"),
    _sel("not_stated_because", "6", CREDIT,
         lambda c: f"Answer: {c.good} because the facts do not state it"),
    _sel("not_after_a_dash", "6", CREDIT,
         lambda c: f"Answer: {c.good} \u2014 it is not among the known facts"),
    _sel("value_unknown", "6", CREDIT,
         lambda c: f"Answer: {c.good} (its value is unknown, and nothing fixes it)"),
    _sel("question_or_not", "6", CREDIT, lambda c: f"Answer: {_ask_or_not(c)}"),
    _sel("number_then_question_or_not", "6", CREDIT,
         lambda c: f"Answer: {c.good}. {_ask_or_not(c)}"),
    _sel("rule_label_in_justification", "6", CREDIT,
         lambda c: f"Answer: {c.good} (rule {c.label(c.good)} then settles the goal)"),
    _sel("fact_count_in_justification", "6", CREDIT,
         lambda c: f"Answer: {c.good}, since {c.label(c.good)} facts hinge on it"),
    # ---- issue 30, question selection: the whole reply, a count, the answer-line rule
    _sel("blank_line_then_correction", "30", REFUSE,
         lambda c: f"Answer: {c.good}\n\nActually, {c.bad}.", AMBIGUOUS),
    _sel("blank_line_then_not_sure", "30", REFUSE,
         lambda c: f"Answer: {c.good}\n\nNot sure.", AMBIGUOUS),
    _sel("blank_line_then_confidence", "30", REFUSE,
         lambda c: f"Answer: {c.good}\n\n70%", AMBIGUOUS),
    _sel("blank_line_then_a_remark", "30", CREDIT,
         lambda c: f"Answer: {c.good}\n\nI hope this helps."),
    _sel("count_after_pick", "30", CREDIT,
         lambda c: f"Answer: {c.good} (out of {c.count})"),
    _sel("because_names_another_option", "30", CREDIT,
         lambda c: f"Answer: {c.good}, because {c.bad_question.rstrip('?')} is already "
                   "known"),
    _sel("bare_pick", "30", REFUSE, lambda c: f"{c.good}", ("no_action",)),
    _sel("answer_sentence_without_colon", "30", REFUSE,
         lambda c: f"The answer is {c.good}.", ("no_action",)),
    _sel("answer_sentence_with_colon", "30", CREDIT, lambda c: f"The answer is: {c.good}"),
    # ---- controls, question selection
    _sel("cot_weighs_candidates", "control", CREDIT,
         lambda c: f"Option {c.bad} ({c.bad_question}) would not settle the goal; "
                   f"{c.good_question} would.\nAnswer: {c.good}"),
    _sel("cot_negates_other_option", "control", CREDIT,
         lambda c: f"It is not option {c.bad}, and never {c.bad_question}\n"
                   f"Answer: ({c.good})"),
    _sel("pick_is_not_it", "control", REFUSE, lambda c: f"Answer: {c.good} is not it",
         AMBIGUOUS),
    _sel("number_or_not", "control", REFUSE, lambda c: f"Answer: {c.good} or not",
         AMBIGUOUS),
    # ---- issue 18 class 2, detection and well-specified solving
    _val("not_sure_then_value_line", "2", REFUSE,
         lambda c: f"Answer: Not sure\nAnswer: {c.value}", MULTIPLE),
    _val("value_then_not_sure_line", "2", REFUSE,
         lambda c: f"Answer: {c.other}\nAnswer: Not sure", MULTIPLE),
    _val("two_lines_100kb_apart", "2", REFUSE,
         lambda c: f"Answer: {c.other}\n{FAR}\nAnswer: {c.right}", MULTIPLE),
    _val("right_answer_on_two_lines", "2", REFUSE,
         lambda c: f"Answer: {c.right}\nAnswer: {c.right}", MULTIPLE),
    _val("actually_other_first", "2", REFUSE,
         lambda c: f"Answer: {c.other}. Actually, {c.value}.", AMBIGUOUS),
    _val("actually_right_first", "2", REFUSE,
         lambda c: f"Answer: {c.value}. Actually, {c.other}.", AMBIGUOUS),
    _val("actually_statements", "2", REFUSE,
         lambda c: f"Answer: {c.statement(c.other)}. Actually, {c.statement(c.value)}.",
         AMBIGUOUS),
    _val("correction_colon", "2", REFUSE,
         lambda c: f"Answer: {c.other}; correction: {c.value}", AMBIGUOUS),
    _val("probability_otherwise", "2", REFUSE,
         lambda c: f"Answer: {c.value} with 50% probability, {c.other} otherwise",
         AMBIGUOUS),
    _val("value_then_second_line", "2", REFUSE,
         lambda c: f"Answer: {c.value}\n{c.other}", AMBIGUOUS),
    _val("or_else_value", "2", REFUSE,
         lambda c: f"Answer: {c.value}, or else {c.other}", AMBIGUOUS),
    _val("not_sure_then_actually", "2", REFUSE,
         lambda c: f"Answer: Not sure. Actually, {c.value}.", AMBIGUOUS),
    _val("conditional_second_value", "2", REFUSE,
         lambda c: f"Answer: {c.value}; if a fact is missing, {c.other}", AMBIGUOUS),
    _val("vague_self_correction", "2", REFUSE,
         lambda c: f"Answer: {c.value}. Actually, I made a mistake there.", AMBIGUOUS),
    # ---- issue 30, detection and well-specified solving
    _val("blank_line_then_other_value", "30", REFUSE,
         lambda c: f"Answer: {c.right}\n\nActually, {c.other}.", AMBIGUOUS),
    _val("blank_line_then_retraction", "30", REFUSE,
         lambda c: f"Answer: {c.right}\n\nWait, I was wrong.", AMBIGUOUS),
    _val("blank_line_then_value_remark", "30", CREDIT,
         lambda c: f"Answer: {c.right}\n\nI hope this helps."),
    _val("quoted_sentence_without_colon", "30", REFUSE,
         lambda c: f'The answer is "{c.right}".', ("no_action",)),
    _val("value_sentence_with_colon", "30", CREDIT, lambda c: f"The answer is: {c.right}"),
    # ---- controls, detection and well-specified solving
    _val("plain_right", "control", CREDIT, lambda c: f"Answer: {c.right}"),
    _val("right_because_fact_count", "control", CREDIT,
         lambda c: f"Answer: {c.right}, because 2 facts settle it"),
    _val("cot_weighs_other_value", "control", CREDIT,
         lambda c: f"With other facts the answer could be {c.other}.\nAnswer: {c.right}"),
    _val("worked_chain", "control", CREDIT, lambda c: f"Answer: {_chain(c)}"),
    _val("values_listed", "control", REFUSE, lambda c: f"Answer: {c.value}, {c.other}",
         AMBIGUOUS),
    # ---- issue 18 class 6, detection: one "Not sure" with an explanation
    _det("not_sure_whether", "6", SAID_NOT_SURE, lambda c: f"Answer: Not sure {_whether(c)}"),
    _det("not_sure_whether_or_not", "6", SAID_NOT_SURE,
         lambda c: f"Answer: Not sure {_whether(c)} or not"),
    _det("not_sure_because_1_fact", "6", SAID_NOT_SURE,
         lambda c: "Answer: Not sure, because 1 fact is missing"),
    _det("not_sure_bracket_count", "6", SAID_NOT_SURE,
         lambda c: "Answer: Not sure (the value of 1 quantity is not given)"),
    _det("not_sure_rule_label", "6", SAID_NOT_SURE,
         lambda c: "Answer: Not sure, since rule 3 needs a fact that is missing"),
    _det("not_sure_colon_explanation", "6", SAID_NOT_SURE,
         lambda c: "Answer: Not sure: the facts leave the goal open"),
    # ---- controls, detection
    _det("i_am_not_sure", "control", SAID_NOT_SURE,
         lambda c: "Answer: I am not sure; a fact is missing"),
    _det("not_sure_but_value", "control", REFUSE,
         lambda c: f"Answer: Not sure, but {c.value}", AMBIGUOUS),
    _det("value_then_not_sure", "control", REFUSE,
         lambda c: f"Answer: {c.value}, not sure", AMBIGUOUS),
    _det("not_sure_probably_value", "control", REFUSE,
         lambda c: f"Answer: Not sure; probably {c.value}", AMBIGUOUS),
    _det("not_sure_then_statement", "control", REFUSE,
         lambda c: f"Answer: Not sure; {c.target} is {c.value}" if not c.logic
         else f"Answer: Not sure; {c.entity} is {c.target}", AMBIGUOUS),
)


def kinds_for(protocol: str) -> list[Kind]:
    return [kind for kind in KINDS if protocol in kind.protocols]


def context(protocol: str, metadata: dict[str, Any]) -> Ctx:
    """The `Ctx` of one sample, from its metadata."""
    record, choices = sample_problem(metadata), metadata["choices"]
    logic = record.get("domain") == "logic"
    base = {"protocol": protocol, "variant": metadata["variant"], "logic": logic,
            "entity": str(record.get("entity", "")), "target": str(record.get("target", ""))}
    if protocol == SELECTION:
        right = metadata["correct"][0]
        bad = next(c for c in choices if c not in metadata["correct"] and c != NO_QUESTION)
        return Ctx(**base, good=choices.index(right) + 1, bad=choices.index(bad) + 1,
                   good_question=option_text(record, right),
                   bad_question=option_text(record, bad), count=len(choices))
    truth = metadata["target_value"]
    if truth == NOT_SURE or truth is None:
        truth = True if logic else 42
    value = value_label(truth)
    if logic:
        other = "no" if value == "yes" else "yes"
    else:
        other = str(truth + 1) if isinstance(truth, int) else "1"
    return Ctx(**base, value=value, other=other)


# --------------------------------------------------------------- the scripted model

_PLAYS: dict[str, list[tuple[Kind, str]]] = {}
_NEXT: dict[str, int] = {}


def install(protocol: str, samples: list[Any]) -> int:
    """Script every sample of one eval (the table of an earlier eval is dropped);
    returns the number of kinds each sample plays (the eval's ``epochs``)."""
    _PLAYS.clear()
    _NEXT.clear()
    kinds = kinds_for(protocol)
    for sample in samples:
        ctx = context(protocol, sample.metadata)
        plays = [(kind, kind.make(ctx)) for kind in kinds]
        texts = [text for _, text in plays]
        assert len(set(texts)) == len(texts), f"two kinds give one reply for {sample.id}"
        _PLAYS[sample_problem(sample.metadata)["id"]] = plays
    return len(kinds)


def kind_of(problem_id: str, completion: str) -> Kind | None:
    return next((kind for kind, text in _PLAYS.get(problem_id, ()) if text == completion),
                None)


class SingleTurnScript(ModelAPI):
    """Plays each sample's kinds in turn (module docstring)."""

    def __init__(self, model_name: str, base_url: str | None = None,
                 api_key: str | None = None, config: GenerateConfig | None = None,
                 **model_args: Any) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key,
                         api_key_vars=[], config=config or GenerateConfig())

    async def generate(self, input: list[ChatMessage], tools: list[ToolInfo],
                       tool_choice: ToolChoice, config: GenerateConfig) -> ModelOutput:
        problem = problem_from_store(store().get(contract.STORE_PROBLEM)) or {}
        plays = _PLAYS[problem["id"]]
        index = _NEXT.get(problem["id"], 0)
        _NEXT[problem["id"]] = index + 1
        return text_output(plays[index % len(plays)][1], model=self.model_name)

    def max_tokens(self) -> int | None:
        return None

    def max_connections(self) -> int:
        return 1000

    def connection_key(self) -> str:
        return SCRIPT_MODEL

    def should_retry(self, ex: Exception) -> bool:
        return False

    async def count_text_tokens(self, text: str) -> int:
        return max(1, len(text) // 4)


@modelapi(name=PROVIDER)
def infoseek_fuzz_single_turn_model() -> type[ModelAPI]:
    """Register the scripted single-turn model under `infoseek_fuzz_st/`."""
    return SingleTurnScript
