"""Incomplete questions with a simulated user (protocols §3.7): the solver and the user.

Variants
- `raw`: the model sees the question without its condition and must answer in a box;
- `questionable`: the same question, but each reply may instead ask the user ONE
  question (inside `<question>...</question>` in the text format, or with the `ask_user`
  tool in the tool format), at most `max_interactions` questions in all;
- `full`: the model sees the original question, condition included.

The simulated user is the Inspect model role `user` (`--model-role user=...`), told only
the condition. Without that role a deterministic rule answers instead
(`infoseek.solvers.incomplete.reading.rule_user_reply`). A reply of the `user` model that states
the hidden numeric answer in any spelling (`nineteen`, `1.9e1`, `19th`, `19hens`, `12+7`;
`infoseek.solvers.incomplete.numbers`), unless the condition itself states that value,
is replaced by the rule's reply and marked `user_source = "model-replaced"` (so is a
reply longer than `MAX_USER_REPLY_CHARS`).

Store: before every generate call the solver writes the turn records so far to
`infoseek:incomplete_turns` (and the same list to `infoseek:turns`), together with
`infoseek:protocol = "incomplete"`, `infoseek:problem` (the record as one line of JSON,
answer included: the reference model `infoseek/optimal` is oracle-informed) and
`infoseek:options`.
Turn record:

    {"turn": 1, "response": "...", "tool_calls": [{"function": ..., "arguments": ...}],
     "behaviour": "asked_question", "boxed": null, "boxes": [], "answer_reason": null,
     "set_aside": [], "question": "How many ...?",
     "question_via": "tag", "extra_questions": 0, "says_assume_or_suppose": false,
     "says_lets_say": false, "user_reply": "Here is what I know: ...",
     "user_source": "rule", "revealed": true, "reminded": false, "final_turn": false,
     "final": false}

`boxes` are the contents of the reply's answer boxes, `boxed` the last of them, and
`answer_reason` is `"ambiguous"` when they hold no single value (never credited);
`set_aside` lists what looked like an action and is none (`unclosed_tag`, `echoed_tag`:
a copy of a tag of our prompts or a placeholder, `empty_tag`, `box_in_question`; rules
in `infoseek.solvers.incomplete.reading`). `final` marks the reply that ended the episode;
`final_turn` that the model had no question left when it wrote the reply. In the
`questionable` variant, the first reply with neither an answer tag nor a question
(`no_answer_tag`) does not end the episode: it gets `reminded: true` and one reminder in
plain words, and the model replies again (once per episode; it costs no question). A
provider reply with no choices reads as an empty reply, and text the solver keeps is
made storable
(`infoseek.solvers.text_format.storable_text`).

A reply Inspect marks as stopped (`infoseek.contract.STOP_REASONS`: ``model_length``,
the context window was exceeded; ``max_tokens``, the reply was cut at the output limit)
ends the episode in every variant and format: its turn record has `behaviour` and
`answer_reason` `context_overflow` or `truncated`, nothing in it is read (no box, no
question, no tool call asked, no reminder), `final` is true and no further call is made.
Its `response` keeps the text; a context overflow's text is the provider's error, so it
leaves the history (a truncated reply is the model's own and stays).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import tool
from inspect_ai.util import store

from infoseek.contract import (
    STOP_REASONS,
    STORE_INCOMPLETE_TURNS,
    STORE_OPTIONS,
    STORE_PROBLEM,
    STORE_PROTOCOL,
    STORE_TURNS,
)
from infoseek.oracles.roles import role_bound, role_reply
from infoseek.records import dumps_record, stored_turns
from infoseek.solvers.incomplete.reading import (
    ParsedReply,
    answer_kind_of,
    condition_revealed,
    leaks_number,
    parse_reply,
    rule_user_reply,
    tag_contents,
)
from infoseek.solvers.text_format import storable_text
from infoseek.solvers.turns import (
    CONTEXT_OVERFLOW,
    drop_from_history,
    generate_turn,
    stopped_reason,
)

PROTOCOL = "incomplete"
VARIANTS: tuple[str, ...] = ("raw", "questionable", "full")
FORMATS: tuple[str, ...] = ("text", "tool")
USER_ROLE = "user"
MAX_USER_REPLY_CHARS = 2000
"""A `user` model reply longer than this is replaced by the rule's reply, like one that
leaks the answer (the user is told to reply in one or two sentences)."""
ASK_USER_TOOL = "ask_user"


# --------------------------------------------------------------------------- prompts

ANSWER_RULES = (
    "Think inside <think>...</think> if you like, then give your final answer inside "
    "<answer>...</answer>, writing the final value as \\boxed{{...}}: a number, or the "
    "letter of the chosen option."
)
ANSWER_EXAMPLE = (
    "Example. Problem: \"Ben has 3 apples and picks 4 more. How many apples does he have?\" "
    "Reply: <think>3 + 4 = 7.</think><answer>Ben has \\boxed{{7}} apples.</answer>"
)
SOLVE_SYSTEM = "You are solving a math problem.\n" + ANSWER_RULES + "\n" + ANSWER_EXAMPLE

QUESTIONABLE_INTRO = (
    "You are solving a math problem written by a user. If something you need to solve it "
    "is missing or unclear, you may ask the user about it instead of answering; the user "
    "replies and you continue."
)
ASK_TEXT_RULES = (
    "To ask, write one question inside <question>...</question> and no <answer> tag "
    "(one question per reply, at most {max_interactions} questions in all). A reply "
    "with an <answer> tag is final, and any question in it is ignored."
)
ASK_TOOL_RULES = (
    "To ask, call the `ask_user` tool with one question (one call per reply, at most "
    "{max_interactions} questions in all). A reply with an <answer> tag is final."
)
ASK_EXAMPLE_TEXT = (
    "Example of asking. Problem: \"A shelf holds some books in each row. How many books "
    "are on 5 rows?\" Reply: <think>I do not know how many books fit in one row.</think>"
    "<question>How many books does one row hold?</question>"
)
NO_QUESTIONS_LEFT = (
    "You have no questions left. Give your final answer now inside <answer>...</answer> "
    "with the value in \\boxed{}."
)
ONE_QUESTION_ONLY = "Only one question per reply is answered; this one was not."
NO_TAG_REMINDER_TEXT = (
    "Your last reply had neither an <answer> tag nor a <question> tag. Either ask one "
    "question inside <question>...</question>, or give your final answer inside "
    "<answer>...</answer> with the value in \\boxed{}."
)
NO_TAG_REMINDER_TOOL = (
    "Your last reply had no <answer> tag and did not call `ask_user`. Either call "
    "`ask_user` with one question, or give your final answer inside <answer>...</answer> "
    "with the value in \\boxed{}."
)
NO_TAG_REMINDER_FINAL = (
    "Your last reply had no <answer> tag. Give your final answer now inside "
    "<answer>...</answer> with the value in \\boxed{}."
)

PROMPT_ECHOES: frozenset[str] = tag_contents(
    ANSWER_RULES.format(), ANSWER_EXAMPLE.format(), ASK_TEXT_RULES, ASK_TOOL_RULES,
    ASK_EXAMPLE_TEXT, NO_QUESTIONS_LEFT, ONE_QUESTION_ONLY, NO_TAG_REMINDER_TEXT,
    NO_TAG_REMINDER_TOOL, NO_TAG_REMINDER_FINAL)
"""The contents of the tags and boxes of our own prompts and corrections: a reply tag
holding one of them is an echo, never an action (`incomplete_text.parse_reply`)."""

USER_SYSTEM = (
    "You are role-playing the person who asked an assistant a math question. When you "
    "wrote the question you left out one piece of information, and that information is "
    "all you know beyond the question itself:\n\n{condition}\n\n"
    "The assistant will ask you something. If the question concerns this information "
    "(asks for it, or for a definition, explanation or clarification of it), answer "
    "from it. Otherwise say that you do not know. Never work out or state the answer to "
    "the math question, and do not make up any other facts. Reply in one or two "
    "sentences."
)


def system_prompt(variant: str, fmt: str, max_interactions: int) -> str:
    if variant != "questionable":
        return SOLVE_SYSTEM.format()
    rules = ASK_TOOL_RULES if fmt == "tool" else ASK_TEXT_RULES
    parts = [QUESTIONABLE_INTRO, rules.format(max_interactions=max_interactions),
             ANSWER_RULES.format(), ANSWER_EXAMPLE.format()]
    if fmt == "text":
        parts.append(ASK_EXAMPLE_TEXT)
    return "\n".join(parts)


# --------------------------------------------------------------------------- options


def incomplete_options(*, variant: str = "questionable", max_interactions: int = 5,
                       fmt: str = "text", seed: int = 0) -> dict[str, Any]:
    """Validated solver options (raises ValueError naming the bad option)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}; got {variant!r}")
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    if (not isinstance(max_interactions, int) or isinstance(max_interactions, bool)
            or max_interactions < 0):
        raise ValueError(f"max_interactions must be an integer >= 0; got {max_interactions!r}")
    return {"variant": variant, "max_interactions": max_interactions, "format": fmt,
            "seed": seed}


def shown_question(record: dict[str, Any], variant: str) -> str:
    """What the model is asked: the original question in `full`, else the incomplete one."""
    return record["question"] if variant == "full" else record["new_question"]


def incomplete_samples(records: list[dict[str, Any]], options: dict[str, Any]) -> MemoryDataset:
    """One sample per record: the shown question as input, the answer as target; the
    record, the variant and the question cap in the metadata."""
    variant = options["variant"]
    samples = [
        Sample(
            id=record["id"],
            input=shown_question(record, variant),
            target=str(record["answer"]),
            metadata={"record": record, "variant": variant,
                      "max_interactions": options["max_interactions"]},
        )
        for record in records
    ]
    return MemoryDataset(samples, name="incomplete_questions")


# --------------------------------------------------------------------------- the user


@tool(name=ASK_USER_TOOL)
def ask_user():
    async def execute(question: str) -> str:
        """Ask the user one question about the problem.

        Args:
            question: Your question, in plain words.
        """
        return "handled by the infoseek incomplete-questions solver"

    return execute


async def simulated_user_reply(question: str | None, record: dict[str, Any]) -> dict[str, Any]:
    """The user's reply to `question`: `{"user_reply", "user_source", "revealed"}`.

    The `user` model role when bound (it sees only the condition and the question),
    else the deterministic rule.
    """
    condition = record["condition"]
    if not role_bound(USER_ROLE):
        reply, revealed = rule_user_reply(question, condition)
        return {"user_reply": reply, "user_source": "rule", "revealed": revealed}
    asked = (question.strip() if question and question.strip()
             else "(The assistant asked an empty question.)")
    text = await role_reply(USER_ROLE, asked, system=USER_SYSTEM.format(condition=condition))
    reply = storable_text(text.strip())
    if len(reply) > MAX_USER_REPLY_CHARS or leaks_number(reply, record["answer"], condition):
        reply, revealed = rule_user_reply(question, condition)
        return {"user_reply": reply, "user_source": "model-replaced", "revealed": revealed}
    return {"user_reply": reply, "user_source": "model",
            "revealed": condition_revealed(reply, condition)}


# --------------------------------------------------------------------------- solver


@solver
def incomplete_solver(variant: str = "questionable", max_interactions: int = 5,
                      fmt: str = "text", seed: int = 0) -> Solver:
    """The incomplete-questions episode; options as in `incomplete_options`."""
    opts = incomplete_options(variant=variant, max_interactions=max_interactions, fmt=fmt,
                              seed=seed)
    may_ask = opts["variant"] == "questionable"
    use_tools = may_ask and opts["format"] == "tool"

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        record: dict[str, Any] = state.metadata["record"]
        answer_kind = answer_kind_of(record["answer"])
        st = store()
        turns: list[dict[str, Any]] = []
        st.set(STORE_PROTOCOL, PROTOCOL)
        st.set(STORE_PROBLEM, dumps_record(record))

        def write(final_turn: bool) -> None:
            st.set(STORE_OPTIONS, {**opts, "final_turn": final_turn})
            st.set(STORE_INCOMPLETE_TURNS, [dict(t) for t in turns])
            st.set(STORE_TURNS, stored_turns(turns))

        state.messages.insert(0, ChatMessageSystem(
            content=system_prompt(opts["variant"], opts["format"], opts["max_interactions"])))
        if use_tools:
            state.tools = [ask_user()]
            state.tool_choice = "auto"

        asked = 0
        reminded = False
        turn_no = 0
        while True:
            turn_no += 1
            final_turn = not may_ask or asked >= opts["max_interactions"]
            write(final_turn)
            message = await generate_turn(state, generate)
            calls = list(message.tool_calls or []) if message is not None else []
            text = message.text if message is not None else ""
            stop = stopped_reason(state, message)  # ends the episode; nothing read
            if stop is not None:
                parsed = stopped_reply(stop)
            else:
                tool_questions = [_question_argument(c.arguments) for c in calls
                                  if c.function == ASK_USER_TOOL] if use_tools else []
                parsed = parse_reply(text, tool_questions, answer_kind=answer_kind,
                                     echoes=PROMPT_ECHOES)
            entry: dict[str, Any] = {
                "turn": turn_no,
                "response": text or "",
                "tool_calls": [{"function": c.function, "arguments": c.arguments}
                               for c in calls],
                "behaviour": parsed.behaviour,
                "boxed": parsed.boxed,
                "boxes": list(parsed.boxes),
                "answer_reason": parsed.answer_reason,
                "set_aside": list(parsed.set_aside),
                "question": parsed.question,
                "question_via": parsed.question_via,
                "extra_questions": parsed.extra_questions,
                "says_assume_or_suppose": parsed.says_assume_or_suppose,
                "says_lets_say": parsed.says_lets_say,
                "user_reply": None, "user_source": None, "revealed": None,
                "reminded": False,
                "final_turn": final_turn,
                "final": True,
            }
            continues = (may_ask and not final_turn
                         and parsed.behaviour == "asked_question")
            remind = (may_ask and not reminded and parsed.behaviour == "no_answer_tag")
            if continues:
                entry.update(await simulated_user_reply(parsed.question, record))
                entry["final"] = False
                asked += 1
            elif remind:
                entry["reminded"] = True
                entry["final"] = False
                reminded = True
            turns.append(entry)
            write(final_turn)
            transcript().info({"infoseek_incomplete_turn": entry},
                              source="infoseek incomplete-questions solver")
            if stop == CONTEXT_OVERFLOW:  # the provider's error text, not the model's
                drop_from_history(state, message)
            if remind:
                reply = NO_TAG_REMINDER_FINAL if final_turn else (
                    NO_TAG_REMINDER_TOOL if use_tools else NO_TAG_REMINDER_TEXT)
            elif continues:
                reply = entry["user_reply"]
                if asked >= opts["max_interactions"]:
                    reply = f"{reply}\n\n{NO_QUESTIONS_LEFT}"
            else:
                break
            if message is None or not state.messages or state.messages[-1] is not message:
                state.messages.append(ChatMessageUser(content=reply))
            else:
                _append_reply(state, message, reply, parsed.question_via, parsed.question)
        return state

    return solve


def stopped_reply(reason: str) -> ParsedReply:
    """What a reply Inspect marks as stopped amounts to: nothing read (no box, no
    question, no hedge word), its behaviour and `answer_reason` the stop reason
    (`context_overflow` or `truncated`; `STOP_REASONS`)."""
    if reason not in STOP_REASONS.values():
        raise ValueError(f"not a stop reason: {reason!r}")
    return ParsedReply(behaviour=reason, boxed=None, question=None, question_via=None,
                       extra_questions=0, says_assume_or_suppose=False,
                       says_lets_say=False, answer_reason=reason)


def _question_argument(arguments: Any) -> str:
    if isinstance(arguments, dict):
        value = arguments.get("question")
        if value is None and len(arguments) == 1:
            value = next(iter(arguments.values()))
        return "" if value is None else str(value)
    return ""


def _append_reply(state: TaskState, message: ChatMessageAssistant, reply: str,
                  via: str | None, question: str | None = None) -> None:
    """The user's reply: a tool message per tool call (the first call asking `question`
    gets the reply; an echoed or empty one before it does not), else one user message."""
    calls = message.tool_calls or []
    if not calls:
        state.messages.append(ChatMessageUser(content=reply))
        return
    answered = via != "tool"  # a tag question is answered below, not in a tool message
    for call in calls:
        if (not answered and call.function == ASK_USER_TOOL
                and _question_argument(call.arguments) == question):
            text, answered = reply, True
        elif call.function == ASK_USER_TOOL:
            text = ONE_QUESTION_ONLY
        else:
            text = f"Unknown tool {call.function!r}; the only tool is `{ASK_USER_TOOL}`."
        state.messages.append(ChatMessageTool(content=text, tool_call_id=call.id,
                                              function=call.function))
    if via != "tool":
        state.messages.append(ChatMessageUser(content=reply))
