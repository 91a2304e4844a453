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


@dataclass(frozen=True, slots=True)
class Replay:
    """Where the answers lead: the events so far and the open request or the outcome."""

    events: tuple[Event, ...]
    request: Request | None
    outcome: Outcome | None


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
        start = cls(intent=intent, options=options or RollUnderOptions())
        return start._advance(dice, [], (), ())

    # -- reading -------------------------------------------------------------------------

    def replay(self) -> Replay:
        """Run the rule through the answers given so far, checking each fits its request."""
        log: list[Event] = []
        procedure = self.intent.procedure(self.options, log)
        try:
            request = next(procedure)
            for answer in self.answers:
                check_answer(request, answer, self.options.omen_repeat_rerolls)
                request = procedure.send(answer)
        except StopIteration as stop:
            return Replay(tuple(log), None, stop.value)
        if isinstance(request, RollRequest) and not self.open_results:
            raise RollUnderError("the saved resolution is missing the results of its open roll")
        return Replay(tuple(log), request, None)

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
        request = self.replay().request
        return None if request is None else self._decision(request)

    def _decision(self, request: Request) -> Decision:
        if isinstance(request, ChoiceRequest):
            return Decision(
                kind=request.kind,
                chooser=request.chooser,
                purpose=request.purpose,
                choices=request.choices,
            )
        keeps = tuple(f"{KEEP} {number}" for number in range(1, len(self.open_results) + 1))
        payers = _rerollers(request, self.open_rerolls, self.options)
        rerolls = tuple(f"{REROLL} {name}" for name in payers)
        return Decision(
            kind="keep_or_reroll",
            roll=request.kind,
            chooser=request.owner,
            purpose=request.purpose,
            choices=keeps + rerolls,
            results=self.open_results,
        )

    # -- advancing -----------------------------------------------------------------------

    def choose(self, choice: str, dice: DiceSource) -> Resolution:
        """Answer the open decision with one of its choices and advance."""
        request = self.replay().request
        if request is None:
            raise RollUnderError("the rule is finished: there is nothing left to choose")
        decision = self._decision(request)
        if choice not in decision.choices:
            raise RollUnderError(
                f"{choice!r} is not a choice here ({decision.purpose}); "
                f"choose one of: {', '.join(decision.choices)}"
            )
        answers = list(self.answers)
        if isinstance(request, ChoiceRequest):
            answers.append(ChoiceAnswer(choice=choice))
            return self._advance(dice, answers, (), ())
        action, _, rest = choice.partition(" ")
        if action == KEEP:
            answers.append(
                RollAnswer(
                    results=self.open_results, rerolled_by=self.open_rerolls, kept=int(rest) - 1
                )
            )
            return self._advance(dice, answers, (), ())
        results = (*self.open_results, roll_for(request, dice))
        return self._advance(dice, answers, results, (*self.open_rerolls, rest))

    def _advance(
        self,
        dice: DiceSource,
        answers: list[RollAnswer | ChoiceAnswer],
        results: tuple[DiceRecord, ...],
        rerolls: tuple[str, ...],
    ) -> Resolution:
        """Replay `answers`, then settle what needs nobody's decision, up to the next one."""
        log: list[Event] = []
        procedure = self.intent.procedure(self.options, log)
        try:
            request = next(procedure)
            for answer in answers:
                request = procedure.send(answer)
            while True:
                answer = self._settled(request, results, rerolls)
                if answer is None:
                    if isinstance(request, RollRequest) and not results:
                        results = (roll_for(request, dice),)
                        continue
                    break
                answers.append(answer)
                results, rerolls = (), ()
                request = procedure.send(answer)
        except StopIteration:
            results, rerolls = (), ()
        return self.model_copy(
            update={
                "answers": tuple(answers),
                "open_results": results,
                "open_rerolls": rerolls,
            }
        )

    def _settled(
        self, request: Request, results: tuple[DiceRecord, ...], rerolls: tuple[str, ...]
    ) -> RollAnswer | ChoiceAnswer | None:
        """The answer when nobody has a choice to make, else None."""
        if isinstance(request, ChoiceRequest):
            return ChoiceAnswer(choice=request.choices[0]) if len(request.choices) == 1 else None
        if len(results) != 1 or _rerollers(request, rerolls, self.options):
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
    resolution = Resolution.begin(intent, dice, options)
    while (decision := resolution.decision) is not None:
        resolution = resolution.choose(policy(decision), dice)
    return resolution
