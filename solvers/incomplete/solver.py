"""Incomplete questions with a simulated user (protocols §3.7): the Inspect solver, a thin
adapter over the game (`infoseek.solvers.incomplete.game`).

Variants
- `raw`: the model sees the question without its condition and must answer in a box;
- `questionable`: the same question, but each reply may instead ask the user ONE
  question (inside `<question>...</question>` in the text format, or with the `ask_question`
  tool in the tool format), at most `max_interactions` questions in all;
- `full`: the model sees the original question, condition included.

The sample's session (`infoseek.solvers.incomplete.session`, started by the task's setup
step or here) holds the episode; the real `ask_question` tool
(`infoseek.solvers.incomplete.tools`) lets any agent play it in this solver's place.
The solver generates, reads the reply (`infoseek.solvers.incomplete.reading`), plays it
(`game.play_turn`: continue, remind or stop), has the simulated user reply to a question
(`infoseek.solvers.incomplete.user`: the `user` model role, by default a structured one
that only classifies the question so the words are the suite's own, else a deterministic
rule)
and puts what the model is told into the history (a tool message per `ask_question` call in
the tool format).

Store (`infoseek.solvers.turns.EpisodeWriter`): `infoseek:protocol = "incomplete"` and
`infoseek:problem` (the record as one line of JSON, answer included: the reference model
`infoseek/optimal` is oracle-informed) at the start, then before every generate call
`infoseek:options` (the options and `final_turn`) and `infoseek:turns`, the turn records
so far (`infoseek.contract.IncompleteTurnRecord`, stored by its `to_dict`):

    {"turn": 1, "response": "...", "tool_calls": [{"function": ..., "arguments": ...}],
     "behaviour": "asked_question", "boxed": null, "boxes": [], "answer_reason": null,
     "set_aside": [], "question": "How many ...?",
     "question_via": "tag", "extra_questions": 0, "says_assume_or_suppose": false,
     "says_lets_say": false, "user_reply": "Here is what I know: ...",
     "user_source": "rule", "revealed": true, "reminded": false, "final_turn": false,
     "final": false, "user_error": null}

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
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from infoseek.solvers.incomplete.game import IncompleteOptions
from infoseek.solvers.incomplete.prompts import ONE_QUESTION_ONLY
from infoseek.solvers.incomplete.session import (
    ASK_QUESTION_TOOL,
    ASKING_TOOLS,
    current_session,
    question_argument,
    start_session,
)
from infoseek.solvers.turns import (
    CONTEXT_OVERFLOW,
    drop_from_history,
    generate_turn,
    stopped_reason,
)


def shown_question(record: dict[str, Any], variant: str) -> str:
    """What the model is asked: the original question in `full`, else the incomplete one."""
    return record["question"] if variant == "full" else record["new_question"]


def incomplete_samples(records: list[dict[str, Any]],
                       options: IncompleteOptions) -> MemoryDataset:
    """One sample per record: the shown question as input, the answer as target; the
    record, the variant and the question cap in the metadata."""
    variant = options.variant
    samples = [
        Sample(
            id=record["id"],
            input=shown_question(record, variant),
            target=str(record["answer"]),
            metadata={"record": record, "variant": variant,
                      "max_interactions": options.max_interactions},
        )
        for record in records
    ]
    return MemoryDataset(samples, name="incomplete_questions")


@solver
def incomplete_solver(options: IncompleteOptions | None = None) -> Solver:
    """The incomplete-questions episode with `options`
    (`infoseek.solvers.incomplete.game.IncompleteOptions`, checked when made; none: its
    defaults), e.g. ``incomplete_solver(IncompleteOptions(variant="raw"))``."""
    opts = IncompleteOptions() if options is None else options

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        session = current_session() or start_session(state, opts)
        episode = session.episode
        while True:
            session.write(episode.final_turn)
            message = await generate_turn(state, generate)
            calls = list(message.tool_calls or []) if message is not None else []
            text = message.text if message is not None else ""
            stop = stopped_reason(state, message)  # ends the episode; nothing read
            parsed = session.read(text, [(c.function, c.arguments) for c in calls], stop)
            _, told = await session.play(parsed, response=text or "", tool_calls=tuple(
                {"function": c.function, "arguments": c.arguments} for c in calls))
            if stop == CONTEXT_OVERFLOW:  # the provider's error text, not the model's
                drop_from_history(state, message)
            if told is None:
                break
            if message is None or not state.messages or state.messages[-1] is not message:
                state.messages.append(ChatMessageUser(content=told))
            else:
                _append_reply(state, message, told, parsed.question_via, parsed.question)
        return state

    return solve


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
        if (not answered and call.function in ASKING_TOOLS
                and question_argument(call.arguments) == question):
            text, answered = reply, True
        elif call.function in ASKING_TOOLS:
            text = ONE_QUESTION_ONLY
        else:
            text = f"Unknown tool {call.function!r}; the only tool is `{ASK_QUESTION_TOOL}`."
        state.messages.append(ChatMessageTool(content=text, tool_call_id=call.id,
                                              function=call.function))
    if via != "tool":
        state.messages.append(ChatMessageUser(content=reply))
