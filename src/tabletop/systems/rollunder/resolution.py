"""The state machine that runs a rule one decision at a time.

A `Resolution` is plain data: the intent (which rule, on whom), the options, every answer
given so far and the results of the roll now open. Its `decision` is the open choice with
its legal `choices`; `choose` answers it and advances to the next real decision (rolls
nobody can re-roll, and choices with one option, are settled on the way). Every property
is recomputed by replaying the answers through the rule, so a saved resolution resumes
exactly, and a refused choice changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.systems.rollunder.abilities import (
    AbilityOutcome,
    AbilityRoll,
    CollectiveRoll,
    GroupOutcome,
    ScoreOutcome,
    ScoreRoll,
    passes,
)
from tabletop.systems.rollunder.contests import Contest, ContestOutcome
from tabletop.systems.rollunder.corruption import CorruptionOutcome, SufferCorruption
from tabletop.systems.rollunder.damage import DamageOutcome, HitOutcome, RollDamage, SufferHit
from tabletop.systems.rollunder.dying import EndOfActivation, LoseAbility, Survival
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.flow import (
    DIE,
    SAVE,
    Answer,
    ChoiceAnswer,
    ChoiceRequest,
    Request,
    RollAnswer,
    RollKind,
    RollRequest,
    check_answer,
    roll_for,
)
from tabletop.systems.rollunder.omens import ChanceOutcome, ChanceRoll
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import DiceRecord, Event, Model

Intent = Annotated[
    AbilityRoll
    | CollectiveRoll
    | ScoreRoll
    | Contest
    | SufferHit
    | RollDamage
    | SufferCorruption
    | LoseAbility
    | EndOfActivation
    | ChanceRoll,
    Field(discriminator="intent"),
]
Outcome = (
    AbilityOutcome
    | GroupOutcome
    | ScoreOutcome
    | ContestOutcome
    | HitOutcome
    | DamageOutcome
    | CorruptionOutcome
    | Survival
    | ChanceOutcome
)

KEEP, REROLL = "keep", "reroll"

Rolling = Callable[[str], AbstractContextManager[object]]
"""Whose dice a roll is, by the name of the one it is rolled for (a request's `owner`): a
shared table says so (`tabletop.session.rolled_for`); alone, nobody's."""


def nobodys(owner: str) -> AbstractContextManager[object]:
    """The dice are nobody's in particular (the command line's, a rule run on its own)."""
    return nullcontext()


class Decision(Model):
    """The open choice: what it is about, who makes it, and every legal answer.

    For a roll, `results` holds every result so far; the choices are `keep N` (1-based)
    and `reroll NAME` for each person who may still spend an omen on it."""

    kind: Literal["keep_or_reroll", "death_save", "destroy_item"]
    roll: RollKind | None = None
    chooser: str
    purpose: str
    choices: tuple[str, ...]
    results: tuple[DiceRecord, ...] = ()
    passes: tuple[bool, ...] = ()
    """For a roll-under roll, whether each result passes its score (none for totals): an
    omen is not spent on a result that already passed by mistake."""


@dataclass(frozen=True, slots=True)
class Replay:
    """Where the answers lead: the events so far and the open request, with the decision it
    puts, or the outcome."""

    events: tuple[Event, ...]
    request: Request | None
    outcome: Outcome | None
    decision: Decision | None = None


class _Run:
    """A rule running live: its procedure, the answers fed to it, the open request with the
    results of its roll so far, or the outcome once it ends. Both the step-by-step
    `Resolution` and `resolve` drive one, so a rule run to its end with a policy is fed each
    answer once (replaying the answers at every decision made a long rule quadratic)."""

    def __init__(
        self, intent: Intent, options: RollUnderOptions, rolling: Rolling = nobodys
    ) -> None:
        self.options = options
        self.rolling = rolling
        self.log: list[Event] = []
        self.answers: list[RollAnswer | ChoiceAnswer] = []
        self.results: tuple[DiceRecord, ...] = ()
        self.rerolls: tuple[str, ...] = ()
        self.outcome: Outcome | None = None
        self._procedure = intent.procedure(options, self.log)
        self.request: Request | None = None
        self._advance(lambda: next(self._procedure))

    def _advance(self, step: Callable[[], Request]) -> None:
        try:
            self.request = step()
        except StopIteration as stop:
            self.request, self.outcome = None, stop.value

    def feed(self, answer: RollAnswer | ChoiceAnswer) -> None:
        """Give the open request its answer; the procedure runs on to its next request."""
        if self.request is None:
            raise RollUnderError("the saved resolution has more answers than its rule asks for")
        self.answers.append(answer)
        self.results, self.rerolls = (), ()
        self._advance(lambda: self._procedure.send(answer))

    def settle(self, dice: DiceSource) -> None:
        """Roll the open roll and answer whatever needs nobody's decision, up to the next
        real decision or the end."""
        while self.request is not None:
            answer = _settled(self.request, self.results, self.rerolls, self.options)
            if answer is not None:
                self.feed(answer)
            elif isinstance(self.request, RollRequest) and not self.results:
                self.results = (self._roll(self.request, dice),)
            else:
                return

    def decision(self) -> Decision | None:
        if self.request is None:
            return None
        return _decision(self.request, self.results, self.rerolls, self.options)

    def where(self) -> Replay:
        """Where the run stands now."""
        return Replay(tuple(self.log), self.request, self.outcome, self.decision())

    def choose(self, choice: str, dice: DiceSource) -> None:
        """Answer the open decision with one of its choices, then settle up to the next."""
        decision = self.decision()
        if decision is None or self.request is None:
            raise RollUnderError("the rule is finished: there is nothing left to choose")
        if choice not in decision.choices:
            raise RollUnderError(
                f"{choice!r} is not a choice here ({decision.purpose}); "
                f"choose one of: {', '.join(decision.choices)}"
            )
        action, _, rest = choice.partition(" ")
        if isinstance(self.request, ChoiceRequest):
            self.feed(ChoiceAnswer(choice=choice))
        elif action == KEEP:
            kept = int(rest) - 1
            self.feed(RollAnswer(results=self.results, rerolled_by=self.rerolls, kept=kept))
        else:
            self.results = (*self.results, self._roll(self.request, dice))
            self.rerolls = (*self.rerolls, rest)
        self.settle(dice)

    def _roll(self, request: RollRequest, dice: DiceSource) -> DiceRecord:
        """The request's dice, rolled for its owner (a re-roll too, whoever pays for it)."""
        with self.rolling(request.owner):
            return roll_for(request, dice)


class Resolution(Model):
    """A rule in progress (or finished), driven one decision at a time."""

    intent: Intent
    options: RollUnderOptions = RollUnderOptions()
    answers: tuple[Answer, ...] = ()
    open_results: tuple[DiceRecord, ...] = ()
    open_rerolls: tuple[str, ...] = ()

    @classmethod
    def begin(
        cls, intent: Intent, dice: DiceSource, options: RollUnderOptions | None = None
    ) -> Resolution:
        """Start a rule and run it to its first real decision (or to its end)."""
        return cls.start(intent, dice, options)[0]

    @classmethod
    def start(
        cls,
        intent: Intent,
        dice: DiceSource,
        options: RollUnderOptions | None = None,
        rolling: Rolling = nobodys,
    ) -> tuple[Resolution, Replay]:
        """`begin`, and where the rule stands, read from the same live run (a table that
        tells every step needs both, and a second replay would double the cost); `rolling`
        says whose each roll is."""
        start = cls(intent=intent, options=options or RollUnderOptions())
        run = _Run(start.intent, start.options, rolling)
        run.settle(dice)
        return start._at(run), run.where()

    # -- reading -------------------------------------------------------------------------

    def replay(self) -> Replay:
        """Run the rule through the answers given so far, checking each fits its request."""
        return self._resumed().where()

    @property
    def finished(self) -> bool:
        return self.replay().request is None

    @property
    def events(self) -> tuple[Event, ...]:
        return self.replay().events

    @property
    def outcome(self) -> Outcome:
        """The rule's result; refused while a decision is open."""
        replayed = self.replay()
        if replayed.outcome is None:
            raise RollUnderError("the rule is waiting for a decision; see .decision")
        return replayed.outcome

    @property
    def decision(self) -> Decision | None:
        """The open decision, or None once the rule is finished."""
        return self._resumed().decision()

    # -- advancing -----------------------------------------------------------------------

    def choose(self, choice: str, dice: DiceSource) -> Resolution:
        """Answer the open decision with one of its choices and advance."""
        return self.answer(choice, dice)[0]

    def answer(
        self, choice: str, dice: DiceSource, rolling: Rolling = nobodys
    ) -> tuple[Resolution, Replay]:
        """`choose`, and where the rule stands after it, from the same live run."""
        run = self._resumed(rolling)
        run.choose(choice, dice)
        return self._at(run), run.where()

    def _resumed(self, rolling: Rolling = nobodys) -> _Run:
        """The rule run live through the saved answers (each checked against its request),
        with the open roll's results so far."""
        run = _Run(self.intent, self.options, rolling)
        for answer in self.answers:
            if run.request is not None:
                check_answer(run.request, answer, self.options.omen_repeat_rerolls)
            run.feed(answer)
        if isinstance(run.request, RollRequest) and not self.open_results:
            raise RollUnderError("the saved resolution is missing the results of its open roll")
        run.results, run.rerolls = self.open_results, self.open_rerolls
        return run

    def _at(self, run: _Run) -> Resolution:
        """This resolution moved to where `run` stands."""
        return self.model_copy(
            update={
                "answers": tuple(run.answers),
                "open_results": run.results,
                "open_rerolls": run.rerolls,
            }
        )


def _decision(
    request: Request,
    results: tuple[DiceRecord, ...],
    rerolls: tuple[str, ...],
    options: RollUnderOptions,
) -> Decision:
    """The decision a request puts to its chooser (for a roll: keep a result or re-roll)."""
    if isinstance(request, ChoiceRequest):
        return Decision(
            kind=request.kind,
            chooser=request.chooser,
            purpose=request.purpose,
            choices=request.choices,
        )
    keeps = tuple(f"{KEEP} {number}" for number in range(1, len(results) + 1))
    payers = _rerollers(request, rerolls, options)
    return Decision(
        kind="keep_or_reroll",
        roll=request.kind,
        chooser=request.owner,
        purpose=request.purpose,
        choices=keeps + tuple(f"{REROLL} {name}" for name in payers),
        results=results,
        passes=()
        if request.score is None
        else tuple(passes(result.total, request.score, options) for result in results),
    )


def _settled(
    request: Request,
    results: tuple[DiceRecord, ...],
    rerolls: tuple[str, ...],
    options: RollUnderOptions,
) -> RollAnswer | ChoiceAnswer | None:
    """The answer when nobody has a choice to make, else None."""
    if isinstance(request, ChoiceRequest):
        return ChoiceAnswer(choice=request.choices[0]) if len(request.choices) == 1 else None
    if len(results) != 1 or _rerollers(request, rerolls, options):
        return None
    return RollAnswer(results=results, rerolled_by=rerolls, kept=0)


def _rerollers(
    request: RollRequest, rerolls: tuple[str, ...], options: RollUnderOptions
) -> tuple[str, ...]:
    """Who may still spend an omen to re-roll (CR-A10)."""
    if rerolls and not options.omen_repeat_rerolls:
        return ()
    return tuple(name for name, omens in request.payers.items() if omens - rerolls.count(name) > 0)


Policy = Callable[[Decision], str]


def no_rerolls(decision: Decision) -> str:
    """A simple player: never re-rolls, always takes the death save when it is offered; the
    GM destroys the first listed item."""
    if decision.kind == "death_save":
        return SAVE if SAVE in decision.choices else DIE
    return decision.choices[0]


def resolve(
    intent: Intent,
    dice: DiceSource,
    options: RollUnderOptions | None = None,
    policy: Policy = no_rerolls,
) -> Resolution:
    """Run a rule to its end, letting `policy` make every decision."""
    start = Resolution(intent=intent, options=options or RollUnderOptions())
    run = _Run(start.intent, start.options)
    run.settle(dice)
    while (decision := run.decision()) is not None:
        run.choose(policy(decision), dice)
    return start._at(run)
