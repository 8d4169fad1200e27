"""The fuzz catalogue of `incomplete_questions` (issue 18): kinds of model, simulated
user and judge output, each a scripted episode with what must come of it.

A kind plays its `model` turns as the model (`Ask(q)` asks `q` the format's way: a
`<question>` tag in the text format, an `ask_user` call in the tool format; `Call` is a
tool call beside some text, tool format only), its `user` replies as the `user` model
role (None: the role is unbound and the deterministic rule answers) and its `judge`
reply as the `judge` role (None: the rule judge). The expectations (None: not checked):

- `credited`: the sample's accuracy is 1;
- `answer_reason`: the final turn's recorded `answer_reason`;
- `set_aside`: reasons that some turn's `set_aside` must hold;
- `forwarded`: the questions the simulated user was asked, in order;
- `replaced`: the first answered question's reply came from the rule in place of the
  `user` model (`model-replaced`), or did not;
- `judge_invalid`, `condition_acquired`, `judge_disagrees`: the score values (NaN as
  `math.nan`);
- `behaviour`: the final turn's recorded behaviour (and the score's one-hot class);
- `turns`: how many turn records the episode has (one per generate call).

A `Stopped(turn, stop_reason)` turn is `turn` with Inspect's ``stop_reason`` set
(``model_length``: the context window was exceeded, ``max_tokens``: the reply was cut at
the output limit).

Every kind is also checked for what holds of all (`tests/fuzz/test_fuzz_incomplete.py`): no
sample error, no message to the model states the hidden answer in any spelling the
condition does not, accuracy 1 only for a final reply whose boxes hold one value, and a
stopped reply is the last turn, never credited, its overflow text out of the history.
The classes are issue 18's: 3 (boxed answers), 4 (judge ratings), 5 (leaks of the
free-text user, `user_kind="free_text"`), 15 (replies stopped by the context window or
the output limit), 16 (echoed and unclosed tags), 17 (the judge against the transcript),
and issue 30's class 6 (the structured user, the default: whatever its model writes,
`suite_words`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

HENS = {
    "question": "A farmer has 12 hens. He buys 7 more hens at the market. How many hens "
                "does he have now?",
    "condition": "He buys 7 more hens at the market.",
    "new_question": "A farmer has 12 hens and buys some more at the market. How many "
                    "hens does he have now?",
    "answer": 19,
}
RECTANGLE = {
    "question": "A rectangle is 7 cm long and 3 cm wide. What is its area?\nA: 10 square "
                "cm\nB: 20 square cm\nC: 21 square cm\nD: 24 square cm",
    "condition": "The rectangle is 7 cm long.",
    "new_question": "A rectangle is 3 cm wide. What is its area?\nA: 10 square cm\nB: 20 "
                    "square cm\nC: 21 square cm\nD: 24 square cm",
    "answer": "C",
}
JUICE = {
    "question": "A jug holds 2.5 litres of juice. Sam pours it equally into 4 glasses. How "
                "many litres are in each glass?",
    "condition": "The jug holds 2.5 litres of juice.",
    "new_question": "Sam pours a jug of juice equally into 4 glasses. How many litres are "
                    "in each glass?",
    "answer": 0.625,
}
RECORDS = {"hens": HENS, "rectangle": RECTANGLE, "juice": JUICE}
FORMATS = ("text", "tool")


@dataclass(frozen=True)
class Ask:
    """Ask one question the format's way."""

    question: str


@dataclass(frozen=True)
class Call:
    """An `ask_user` call beside some text (tool format only)."""

    question: str
    content: str = ""


@dataclass(frozen=True)
class Stopped:
    """A turn whose output Inspect marks with `stop_reason`."""

    turn: str | Ask | Call
    stop_reason: str


Turn = str | Ask | Call | Stopped

ASK_HENS = Ask("How many hens did he buy at the market?")
ANSWER_19 = "<answer>\\boxed{19}</answer>"


@dataclass(frozen=True)
class Kind:
    name: str
    klass: str
    model: tuple[Turn, ...]
    record: str = "hens"
    user: tuple[str, ...] | None = None
    judge: str | None = None
    variant: str = "questionable"
    max_interactions: int = 5
    formats: tuple[str, ...] = FORMATS
    credited: bool | None = None
    answer_reason: Any = "unchecked"
    set_aside: tuple[str, ...] = ()
    forwarded: tuple[str, ...] | None = None
    replaced: bool | None = None
    judge_invalid: float | None = None
    condition_acquired: float | None = None
    judge_disagrees: float | None = None
    behaviour: str | None = None
    turns: int | None = None
    user_kind: str = "free_text"
    """The task's `user` parameter: the catalogue's older kinds script a free-text user."""
    suite_words: bool | None = None
    """Every user reply the model saw is the suite's own (`USER_REVEAL` with the
    record's condition, or `USER_UNKNOWN`), whatever the user model wrote."""

    def group(self, fmt: str) -> tuple[Any, ...]:
        """Kinds of one group run in one eval (same task options and model roles)."""
        return (fmt, self.variant, self.max_interactions, self.user is not None,
                self.judge is not None, self.user_kind)


def _boxed(name: str, reply: str, *, credited: bool, record: str = "hens",
           **options: Any) -> Kind:
    """Class 3: one final reply with boxes."""
    return Kind(name, "3", (reply,), record=record, credited=credited,
                answer_reason=None if credited else "ambiguous", **options)


def _judged(name: str, judge: str, *, invalid: bool) -> Kind:
    """Class 4: asks the right question, answers right; the judge's reply."""
    return Kind(name, "4", (ASK_HENS, ANSWER_19), judge=judge, credited=True,
                judge_invalid=1.0 if invalid else 0.0,
                condition_acquired=math.nan if invalid else 1.0)


def _leak(name: str, reply: str, *, leaks: bool, record: str = "hens") -> Kind:
    """Class 5: the `user` model's reply to the right question."""
    question = ASK_HENS if record == "hens" else Ask("How much juice does the jug hold?")
    return Kind(name, "5", (question, "<answer>\\boxed{0}</answer>"), record=record,
                user=(reply,), replaced=leaks, forwarded=(question.question,))


def _structured(name: str, reply: str, *, record: str = "hens") -> Kind:
    """Issue 30 class 6: the structured `user` model (the default) tries to state the
    answer; the model under test sees only the suite's words."""
    question = ASK_HENS if record == "hens" else Ask("How much juice does the jug hold?")
    return Kind(name, "30.6", (question, "<answer>\\boxed{0}</answer>"), record=record,
                user=(reply,), user_kind="structured", suite_words=True,
                forwarded=(question.question,))


def _echo(name: str, first: Turn, *, reason: str | None, record: str = "hens",
          forwarded: tuple[str, ...] = (), credited: bool = True,
          formats: tuple[str, ...] = FORMATS) -> Kind:
    """Class 16: a first reply holding an echoed or unclosed tag, then the right answer."""
    answer = ANSWER_19 if record == "hens" else "<answer>\\boxed{C}</answer>"
    return Kind(name, "16", (first, answer), record=record, credited=credited,
                set_aside=(reason,) if reason else (), forwarded=forwarded, formats=formats)


OVERFLOW_TEXT = ("This model's maximum context length is 4096 tokens. However, your "
                 "messages resulted in 4213 tokens. Please reduce the length.")


def _stopped(name: str, model: tuple[Turn, ...], reason: str, **options: Any) -> Kind:
    """Class 15: the last of `model` is stopped; the episode ends there, uncredited."""
    return Kind(name, "15", model, credited=False, behaviour=reason, answer_reason=reason,
                turns=len(model), **options)


KINDS: tuple[Kind, ...] = (
    # ------------------------------------------------ 3. boxed answers: one value only
    _boxed("c3_guess_then_box", "<answer>First guess \\boxed{20}; on reflection "
           "\\boxed{19}.</answer>", credited=False),
    _boxed("c3_boxes_in_two_tags", "<answer>\\boxed{21}</answer> <answer>\\boxed{19}"
           "</answer>", credited=False),
    _boxed("c3_at_most_inside", "<answer>\\boxed{19 at most}</answer>", credited=False),
    _boxed("c3_give_or_take_inside", "<answer>\\boxed{19 give or take}</answer>",
           credited=False),
    _boxed("c3_probably_inside", "\\boxed{19 \\text{ (probably)}}", credited=False),
    _boxed("c3_plus_minus_inside", "\\boxed{19 \\pm 1}", credited=False),
    _boxed("c3_range_inside", "\\boxed{19 to 20}", credited=False),
    _boxed("c3_list_inside", "\\boxed{19; 20}", credited=False),
    _boxed("c3_equations_inside", "\\boxed{h = 20 \\text{ or } h = 19}", credited=False),
    _boxed("c3_two_equations_inside", "\\boxed{h = 20, h = 19}", credited=False),
    _boxed("c3_unevaluated_inside", "\\boxed{12 + 7}", credited=False),
    _boxed("c3_alternative_after_box", "<answer>\\boxed{19}, or possibly 20</answer>",
           credited=False),
    _boxed("c3_parenthesised_alternative", "<answer>\\boxed{19} (alternatively 20)"
           "</answer>", credited=False),
    _boxed("c3_letters_and", "\\boxed{C and D}", record="rectangle", credited=False),
    _boxed("c3_letters_parenthesised", "\\boxed{(C) (D)}", record="rectangle",
           credited=False),
    _boxed("c3_letters_slash", "<answer>\\boxed{C/D}</answer>", record="rectangle",
           credited=False),
    _boxed("c3_letter_boxes_differ", "<answer>\\boxed{D}... no: \\boxed{C}</answer>",
           record="rectangle", credited=False),
    Kind("c3_box_in_question_last_turn", "3", ("<question>Is it \\boxed{19}?</question>",),
         max_interactions=0, credited=False, set_aside=("box_in_question",)),
    Kind("c3_box_in_unclosed_question", "3", (
        "<question>Would the answer be \\boxed{19}", "<answer>I cannot tell.</answer>"),
         max_interactions=0, credited=False, set_aside=("unclosed_tag", "box_in_question")),
    Kind("c3_box_in_question_then_answer", "3", (
        "<question>Did he buy enough to reach \\boxed{20}?</question>", ANSWER_19),
         credited=True, set_aside=("box_in_question",),
         forwarded=("Did he buy enough to reach \\boxed{20}?",), formats=("text",)),
    # single values stay credited
    _boxed("c3_named_value", "<answer>\\boxed{h = 19}</answer>", credited=True),
    _boxed("c3_value_with_unit", "<answer>\\boxed{19 \\text{ hens}}</answer>", credited=True),
    _boxed("c3_worked_chain", "<answer>\\boxed{12 + 7 = 19}</answer>", credited=True),
    _boxed("c3_justified", "<answer>\\boxed{19}, because 12 + 7 = 19.</answer>",
           credited=True),
    _boxed("c3_same_value_twice", "So \\boxed{19}. <answer>\\boxed{19.0}</answer>",
           credited=True),
    _boxed("c3_box_in_think_dropped", "<think>maybe \\boxed{20}</think><answer>"
           "\\boxed{19}</answer>", credited=True),
    _boxed("c3_letter_bold", "<answer>\\boxed{\\textbf{C}}</answer>", record="rectangle",
           credited=True),
    _boxed("c3_letter_with_option_text", "<answer>\\boxed{C) 21 square cm}</answer>",
           record="rectangle", credited=True),
    # ------------------------------------------------ 4. judge ratings, read strictly
    _judged("c4_yes_semicolon_no", "acquired: yes; no\nassumed: no", invalid=True),
    _judged("c4_yes_or_rather_no", "acquired: yes, or rather no\nassumed: no",
            invalid=True),
    _judged("c4_never_acquired", "never acquired: yes\nassumed: no", invalid=True),
    _judged("c4_not_prefix", "Not acquired: yes\nassumed: no", invalid=True),
    _judged("c4_assumed_hedged", "acquired: yes\nassumed: no (maybe yes)", invalid=True),
    _judged("c4_rating_repeated", "acquired: yes\nassumed: no\nacquired: yes", invalid=True),
    _judged("c4_both_on_one_line", "acquired: yes, assumed: no", invalid=True),
    _judged("c4_acquired_missing", "assumed: no\nThe assistant acquired it.", invalid=True),
    _judged("c4_bold_ratings", "**Acquired:** Yes\n**Assumed:** No", invalid=False),
    _judged("c4_numbered_ratings", "1) acquired = yes\n2) assumed = no\nThe assistant asked "
            "how many hens he bought.", invalid=False),
    _judged("c4_dash_ratings", "ACQUIRED - YES.\nASSUMED - NO.", invalid=False),
    # ------------------------------------------------ 5. leaks in any spelling
    _leak("c5_words_total", "He bought seven more, so nineteen altogether.", leaks=True),
    _leak("c5_words_expression", "Seven more, which makes twenty minus one.", leaks=True),
    _leak("c5_dozen_plus_seven", "He had a dozen plus seven in the end.", leaks=True),
    _leak("c5_scientific_upper", "He ends with 1.90E+01 hens.", leaks=True),
    _leak("c5_scientific_times_ten", "That is 1.9 × 10¹ hens in the end.", leaks=True),
    _leak("c5_ordinal_word", "The last one he bought was his nineteenth hen.", leaks=True),
    _leak("c5_ordinal_digits", "His flock reached its 19th member.", leaks=True),
    _leak("c5_glued_unit", "Seven more: that makes 19pcs in the coop.", leaks=True),
    _leak("c5_fraction", "He has 38/2 hens now.", leaks=True),
    _leak("c5_latex_fraction", "He has \\frac{38}{2} hens now.", leaks=True),
    _leak("c5_expression", "He buys 7 more, so (12 + 7) hens.", leaks=True),
    _leak("c5_times_words", "two times 9.5, I think.", leaks=True),
    _leak("c5_fraction_words", "Each glass gets five-eighths of a litre.", leaks=True,
          record="juice"),
    _leak("c5_percent", "Each glass holds 62.5% of a litre.", leaks=True, record="juice"),
    _leak("c5_division", "It is 2.5 / 4 litres per glass.", leaks=True, record="juice"),
    # a reply that only restates the condition's own numbers, in any spelling, stays
    _leak("c5_condition_in_words", "He bought seven more hens at the market.", leaks=False),
    _leak("c5_condition_number", "I only know he bought 7 hens; I can't tell the total.",
          leaks=False),
    _leak("c5_condition_decimal_words", "The jug holds two and a half litres.", leaks=False,
          record="juice"),
    # ------------------------------------------------ issue 30, 6. the structured user
    _structured("c30_6_roman", "XIX"),
    _structured("c30_6_roman_sentence", "1. He has XIX hens now."),
    _structured("c30_6_hexadecimal", "0x13"),
    _structured("c30_6_spanish", "diecinueve gallinas"),
    _structured("c30_6_german", "neunzehn"),
    _structured("c30_6_riddle", "one more than eighteen"),
    _structured("c30_6_product", "7 times 3 minus 2"),
    _structured("c30_6_spaced_digits", "1 9"),
    _structured("c30_6_dozen_and_seven", "a dozen and seven"),
    _structured("c30_6_letter", "The answer is C", record="juice"),
    _structured("c30_6_pick_then_answer", "1\n\nHe has 19 hens."),
    _structured("c30_6_clean_pick", "1"),
    _structured("c30_6_clean_none", "none"),
    _structured("c30_6_fraction_words", "five eighths", record="juice"),
    # ------------------------------------------------ 15. stopped replies end the episode
    _stopped("c15_overflow_error_text", (Stopped(OVERFLOW_TEXT, "model_length"),),
             "context_overflow", forwarded=()),
    _stopped("c15_overflow_holding_the_answer", (Stopped(ANSWER_19, "model_length"),),
             "context_overflow"),
    _stopped("c15_overflow_after_a_question", (ASK_HENS, Stopped(ANSWER_19, "model_length")),
             "context_overflow", forwarded=(ASK_HENS.question,)),
    _stopped("c15_overflow_in_full", (Stopped(ANSWER_19, "model_length"),),
             "context_overflow", variant="full"),
    _stopped("c15_truncated_mid_box", (Stopped("<think>12 + 7 = 19</think><answer>He has "
                                               "\\boxed{1", "max_tokens"),), "truncated"),
    _stopped("c15_truncated_clean_answer", (Stopped(ANSWER_19, "max_tokens"),), "truncated"),
    _stopped("c15_truncated_question", (Stopped(ASK_HENS, "max_tokens"),), "truncated",
             forwarded=()),
    _stopped("c15_truncated_question_call", (Stopped(Call(ASK_HENS.question, content=
                                                          "Let me ask."), "max_tokens"),),
             "truncated", forwarded=(), formats=("tool",)),
    _stopped("c15_truncated_thinking", (Stopped("<think>He had 12 hens and then bought",
                                                "max_tokens"),), "truncated"),
    _stopped("c15_truncated_after_the_reminder", (
        "Let me think about it.", Stopped(ANSWER_19, "max_tokens")), "truncated"),
    _stopped("c15_truncated_without_questions_left", (Stopped(ANSWER_19, "max_tokens"),),
             "truncated", max_interactions=0),
    _stopped("c15_truncated_in_raw", (Stopped(ANSWER_19, "max_tokens"),), "truncated",
             variant="raw"),
    _stopped("c15_truncated_choice", (Stopped("<answer>\\boxed{C}</answer>", "max_tokens"),),
             "truncated", record="rectangle"),
    # ------------------------------------------------ 16. echoed / unclosed tags
    _echo("c16_placeholder_question", "Fine, I'll write <question>...</question> next.",
          reason="echoed_tag"),
    _echo("c16_example_question", "<question>How many books does one row hold?</question>",
          reason="echoed_tag"),
    _echo("c16_unclosed_question", "<question>How many hens did he buy at the market?",
          reason="unclosed_tag"),
    _echo("c16_broken_closer", "You said to ask inside <question>...</question, so: the "
          "total is 732", reason="unclosed_tag"),
    _echo("c16_empty_question", "<question> </question>", reason="empty_tag"),
    _echo("c16_echoed_answer_then_question", "My reply goes in <answer>...</answer> later. "
          "<question>How many hens did he buy?</question>", reason="echoed_tag",
          forwarded=("How many hens did he buy?",)),
    _echo("c16_echoed_correction", "Give your final answer now inside <answer>...</answer> "
          "with the value in \\boxed{}.", reason="echoed_tag"),
    _echo("c16_unclosed_answer", "<answer>I think it is nineteen", reason="unclosed_tag"),
    _echo("c16_example_answer", "<answer>Ben has \\boxed{7} apples.</answer>",
          reason="echoed_tag"),
    _echo("c16_placeholder_box", "I will write \\boxed{...} at the end.",
          reason="echoed_tag"),
    _echo("c16_choice_echo", "<answer>...</answer>", reason="echoed_tag", record="rectangle"),
    _echo("c16_tool_call_beside_echo", Call("How many hens did he buy?",
                                            content="Then <answer>...</answer>."),
          reason="echoed_tag", forwarded=("How many hens did he buy?",), formats=("tool",)),
    _echo("c16_tool_placeholder_question", Call("..."), reason="echoed_tag",
          formats=("tool",)),
    _echo("c16_tool_example_question", Call("How many books does one row hold?"),
          reason="echoed_tag", formats=("tool",)),
    _echo("c16_real_question", ASK_HENS, reason=None, forwarded=(ASK_HENS.question,)),
    # ------------------------------------------------ 17. the judge against the transcript
    Kind("c17_asked_nothing_judge_yes", "17", (ANSWER_19,), judge="acquired: yes\nassumed: no",
         condition_acquired=0.0, judge_disagrees=1.0, judge_invalid=0.0),
    Kind("c17_echo_only_judge_yes", "17", ("<question>...</question>", ANSWER_19),
         judge="acquired: yes\nassumed: no", condition_acquired=0.0, judge_disagrees=1.0,
         forwarded=()),
    Kind("c17_unanswered_question_judge_yes", "17", (Ask("What is your name?"), ANSWER_19),
         judge="acquired: yes\nassumed: no", condition_acquired=1.0, judge_disagrees=1.0,
         forwarded=("What is your name?",)),
    Kind("c17_revealed_judge_no", "17", (ASK_HENS, ANSWER_19),
         judge="acquired: no\nassumed: no", condition_acquired=0.0, judge_disagrees=1.0),
    Kind("c17_revealed_judge_yes", "17", (ASK_HENS, ANSWER_19),
         judge="acquired: yes\nassumed: no", condition_acquired=1.0, judge_disagrees=0.0),
    Kind("c17_rule_judge", "17", (ANSWER_19,), condition_acquired=0.0,
         judge_disagrees=math.nan),
)
