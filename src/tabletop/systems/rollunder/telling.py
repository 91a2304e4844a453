"""Who reads what of a roll-under step: the one place a table keeps its secrets (CR-S04,
CR-S06, CR-N02).

Every line is told as its roll's mode says (CR-S06). A *kept* character is one whose numbers
the players may not see: one of the GM's secret characters, or an NPC the GM has not shown.
The GM reads every line whole; the players read

- of a rule on kept characters alone, one line in words once it is settled (`Mire hound
  takes a hit`, `Mire hound makes a STR roll`), and nothing of its dice, decisions, omens,
  criticals or saves; made blind or for the GM, what such a roll tells of anyone's;
- of a rule a kept character shares with others (a contest, a collective roll), every line
  of the others whole, with the kept characters' successes and a group's best score as `?`
  (`kept.secret`), and the ranking and the group's verdict, which are everyone's result;
- of a step without dice (a sheet edit, time passing, the company), what anyone at the
  table would see (it follows someone, casts a sacred spell, dies, is healed), and nothing
  of its sheet.

Dice are rolled for whoever the roll is about (`rolling`), so a resolution that keeps a part
from the players still shows them their own (`tabletop.session.rolled_for`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from tabletop import kept
from tabletop.session import Event, Member, RollMode, Visibility, note, roll_visibility, rolled_for
from tabletop.systems.rollunder.abilities import (
    GROUP,
    AbilityOutcome,
    AbilityRoll,
    CollectiveRoll,
    GroupOutcome,
    ScoreOutcome,
    ScoreRoll,
    group_roll_text,
)
from tabletop.systems.rollunder.contests import (
    Contest,
    ContestOutcome,
    passes_text,
    tie_break_text,
)
from tabletop.systems.rollunder.corruption import CorruptionOutcome, SufferCorruption
from tabletop.systems.rollunder.damage import DamageOutcome, HitOutcome, RollDamage, SufferHit
from tabletop.systems.rollunder.dying import LoseAbility, Survival
from tabletop.systems.rollunder.omens import ChanceOutcome, ChanceRoll
from tabletop.systems.rollunder.records import Event as RulesEvent
from tabletop.systems.rollunder.resolution import REROLL, Decision, Intent, Outcome
from tabletop.systems.rollunder.table import Id, Pending, RollUnderTable
from tabletop.words import counted, listed, words_of

GM_CALLS = ("trivial", "impossible")
"""Challenge levels that settle a roll by the GM's call, not by anyone's numbers (CR-S05)."""

AS_SEEN = frozenset({"follower", "replacement", "died", "sacred_spell", "renamed"})
"""Lines of a step without dice that tell what anyone at the table sees a kept character do
(whom it follows, who replaces whom, its death the GM declares, the spell it casts): they
hold none of its numbers, so the players read them as they are."""


@dataclass(frozen=True)
class Telling:
    """How the lines of one step reach the table: the kept characters, the rule being told
    and the characters it runs on, the roll's mode, who asked and who acts now."""

    kept: Mapping[str, Id]
    """Every kept character at the table, by name."""
    taking_part: Mapping[str, Id]
    """The characters at the table the rule runs on, by name."""
    rule: Intent | None
    """The rule told; None for a step without dice or decisions."""
    mode: RollMode
    asker: str
    roller: str
    """Who acts now, named in what a roll made blind or for the GM tells the others."""

    @classmethod
    def of(
        cls,
        state: RollUnderTable,
        member: Member,
        rule: Intent | None = None,
        taking_part: Mapping[str, Id] | None = None,
        mode: RollMode = RollMode.PUBLIC,
        asker: str | None = None,
    ) -> Telling:
        return cls(
            kept={s.sheet.name: cid for cid, s in state.characters.items() if s.secret},
            taking_part=dict(taking_part or {}),
            rule=rule,
            mode=mode,
            asker=member.id if asker is None else asker,
            roller=member.name or member.id,
        )

    @classmethod
    def at(cls, state: RollUnderTable, member: Member, pending: Pending | None = None) -> Telling:
        """The telling of a step, of the rule waiting in `pending` if any."""
        if pending is None:
            return cls.of(state, member)
        rule = pending.resolution.intent
        return cls.of(state, member, rule, pending.characters, pending.mode, pending.asker)

    # whose dice ---------------------------------------------------------------------------

    def rolling(self, owner: str) -> AbstractContextManager[object]:
        """The dice of a roll for `owner` (a name, or the group) are that character's; a
        group's single d20 is a shown member's, if it has one; a bare score's are nobody's."""
        if owner == GROUP:
            shown = [name for name in self.taking_part if name not in self.kept]
            owner = next(iter(shown or self.taking_part), "")
        cid = self.taking_part.get(owner)
        return nullcontext() if cid is None else rolled_for(cid)

    # the lines ----------------------------------------------------------------------------

    def rules(self, events: Sequence[RulesEvent], changed: str | None = None) -> list[Event]:
        """The rules' own events in the protocol's shape, each told as it may be. `changed`:
        the one character a step without dice changes (a sheet edit); where it is kept and
        nothing else of the step reaches the players, they read that the GM changes it, as
        for an NPC's number (`tabletop.npcs.changed`), so their page follows the table."""
        told = [self._line(e) for e in events]
        owner = self._kept_id(changed)
        if owner is None or not told or any(_reaches_players(e) for e in told):
            return told
        return [self._kept(told[0], owner, f"the GM changes {changed}"), *told[1:]]

    def opening(self, contest: Contest) -> Event:
        """A contest's first line: who contests which ability, and how many rolls each."""
        sides = " against ".join(
            side.name
            if [m.name for m in side.members] == [side.name]
            else f"{side.name} ({listed([m.name for m in side.members])})"
            for side in contest.sides
        )
        text = f"a contest of {contest.ability}, {counted(contest.rolls, 'roll')} each: {sides}"
        return self._in_mode(note("contest", text, ability=contest.ability, rolls=contest.rolls))

    def decision(self, decision: Decision) -> Event:
        """The decision the rule waits for, with the roll's newest result (the earlier ones
        were told before it; `view` shows them all)."""
        latest = decision.results[-1] if decision.results else None
        event = note(
            "decision",
            waiting(decision),
            **decision.model_dump(mode="json", exclude={"results", "passes"}),
            result=latest.model_dump(mode="json") if latest else None,
            results=len(decision.results),
        )
        return self._decided(event, decision.chooser, "a decision kept from you waits for the GM")

    def answer(self, who: str, choice: str, chooser: str) -> Event:
        """`who` answers the decision `chooser` makes. The players read that a kept
        character's decision was answered, as their view showed it waiting, and not how;
        a kept character's re-roll of a roll it shares with others is `?` to them."""
        said = note("answer", f"{who}: {answered(choice)}", choice=choice)
        action, _, name = choice.partition(" ")
        payer = self._kept_id(name) if action == REROLL else None
        if payer is not None and self._kept_by(chooser) is None:  # else the whole line is kept
            secret = answered(f"{REROLL} {kept.secret(payer, name)}")
            said = said.model_copy(update={"text": f"{who}: {secret}"})
        return self._decided(said, chooser, f"{who} answers a decision kept from you")

    def outcome(self, outcome: Outcome) -> Event:
        """What the rule settled: whole where nobody kept takes part; in words where only
        kept characters do; for a rule shared with them, the facts everyone may read (the
        ranking and the shown sides' successes, the group's verdict), since a page builds
        each player's result from them."""
        assert self.rule is not None  # only a rule has an outcome
        facts = outcome.model_dump(mode="json")
        event = note("outcome", outcome_text(outcome), rule=self.rule.intent, outcome=facts)
        kept_ids, others = self._parts()
        if not kept_ids:
            return self._in_mode(event)
        if not others:
            return self._kept(event, kept_ids[0], self._settled_words(outcome))
        shared = {"rule": self.rule.intent, "outcome": self._share(outcome, facts)}
        return self._in_mode(event.model_copy(update={"data": shared}))

    def decision_view(self, decision: Decision) -> dict[str, Any]:
        """The open decision as a player who sees it may read it: of a roll shared with kept
        characters, without their re-rolls or whether a result passed (against a best score
        that may be theirs)."""
        shown = decision.model_dump(mode="json")
        if self._parts()[0] and decision.chooser not in self._rolling_names():
            shown["choices"] = [c for c in decision.choices if not self._kept_reroll(c)]
            shown.pop("passes")
        return shown

    # inside -------------------------------------------------------------------------------

    def _line(self, e: RulesEvent) -> Event:
        dice = e.dice.model_dump(mode="json") if e.dice else None
        event = Event(
            type=e.kind,
            text=e.text,
            data={"character": e.character, "values": e.values, "dice": dice},
        )
        owner = self._kept_id(e.character) if e.character else None
        if owner is not None:
            return self._kept_line(e, event, owner)
        if e.character in (None, GROUP):
            return self._group_line(e, event)
        return self._in_mode(event)

    def _kept_line(self, e: RulesEvent, event: Event, owner: Id) -> Event:
        """A line about one kept character."""
        if e.kind == "contest_rolls":
            successes = kept.secret(owner, e.values["successes"])
            text = passes_text(str(e.character), successes, e.values["rolls"])
            return self._in_mode(event.model_copy(update={"text": text}))
        if e.kind == "automatic_result" and e.values.get("level") in GM_CALLS:
            return self._in_mode(event)
        if self.rule is None and e.kind in AS_SEEN:
            return self._in_mode(event)
        words = f"{e.character} is healed" if self.rule is None and e.kind == "healed" else None
        return self._kept(event, owner, words)

    def _group_line(self, e: RulesEvent, event: Event) -> Event:
        """A line about the whole rule: a group's d20 and verdict, a contest's tie-breaks
        and ranking."""
        kept_ids, others = self._parts()
        if not kept_ids or (e.kind == "automatic_result" and e.values.get("level") in GM_CALLS):
            return self._in_mode(event)
        if not others:
            return self._kept(event, kept_ids[0], None)
        values = e.values
        if e.kind == "ability_roll":
            best = kept.secret(kept_ids[0], values["score"])
            text = group_roll_text(values["group"], values["face"], values["ability"], best)
            return self._in_mode(event.model_copy(update={"text": text}))
        if e.kind == "tie_break":
            owners = self._side_owners()
            shown = {
                side: kept.secret(owners[side], score) if side in owners else score
                for side, score in values.items()
            }
            return self._in_mode(event.model_copy(update={"text": tie_break_text(shown)}))
        if e.kind == "automatic_result":  # nobody in the group able to act, kept ones too
            words = f"the group fails the {values['ability']} roll"
            hidden = event.model_copy(update={"text": kept.secret(kept_ids[0], event.text)})
            return self._in_mode(hidden, words)
        return self._in_mode(event)

    def shows(self, decision: Decision, member: Member) -> bool:
        """Whether `member` sees the open decision (and may answer their part of it): the
        GM always; a player, as the roll's mode tells it, unless it is a kept character's."""
        if member.is_gm:
            return True
        return self._kept_by(decision.chooser) is None and self.decision(decision).seen_by(member)

    def _kept_by(self, chooser: str) -> Id | None:
        """The kept character whose decision this is, if it is wholly kept: the chooser's
        (a character, a bare score), or the whole rule's (a group's roll, the GM's pick of
        an item) where only kept characters take part."""
        owner = self._kept_id(chooser)
        if owner is not None or chooser in self._rolling_names():
            return owner
        kept_ids, others = self._parts()
        return kept_ids[0] if kept_ids and not others else None

    def _decided(self, event: Event, chooser: str, words: str) -> Event:
        """A decision or its answer; `words`, what the players read of it where it is wholly
        kept (their view shows them one waits)."""
        owner = self._kept_by(chooser)
        if owner is not None:
            return self._kept(event, owner, words)
        kept_ids, _ = self._parts()
        if chooser in self._rolling_names() or not kept_ids or kept.owners(event.text):
            return self._in_mode(event)
        # A roll shared with kept characters: its facts name their re-rolls, so the players
        # read the line alone.
        hidden = event.model_copy(update={"text": kept.secret(kept_ids[0], event.text)})
        return self._in_mode(hidden, event.text)

    def _in_mode(self, event: Event, hint: str = "") -> Event:
        """`event` told as the roll's mode says; `hint`, in the open, what the players read
        of a line that keeps all of itself from them."""
        visibility, told = roll_visibility(self.mode, self.roller)
        audience = (self.asker,) if visibility == Visibility.ACTOR else ()
        told = hint if self.mode == RollMode.PUBLIC else told
        return _told(event, visibility, told, audience)

    def _kept(self, event: Event, owner: Id, words: str | None) -> Event:
        """A line wholly the kept character `owner`'s: in the open, `words` for the players
        (or nothing at all); in any other mode, what that mode tells of anyone's roll."""
        if self.mode != RollMode.PUBLIC:
            return _told(event, Visibility.HIDDEN, roll_visibility(self.mode, self.roller)[1])
        if words is None:
            return _told(event, Visibility.GM, "")
        whole = event.model_copy(update={"text": kept.secret(owner, event.text)})
        return _told(whole, Visibility.PUBLIC, words)

    def _kept_id(self, name: str | None) -> Id | None:
        """`name`'s id if they are a kept character (of those the rule runs on, in a rule)."""
        if name is None or (self.rule is not None and name not in self.taking_part):
            return None
        return self.kept.get(name)

    def _rolling_names(self) -> tuple[str, ...]:
        """Everyone the rule rolls for: its characters and any bare scores."""
        rule = self.rule
        if isinstance(rule, Contest):
            return tuple(m.name for side in rule.sides for m in side.members)
        if isinstance(rule, ScoreRoll):
            return tuple(roller.name for roller in rule.rollers)
        return tuple(self.taking_part)

    def _parts(self) -> tuple[list[Id], bool]:
        """The kept characters the rule rolls for, and whether it rolls for anyone else."""
        names = self._rolling_names()
        kept_ids = [cid for cid in map(self._kept_id, names) if cid is not None]
        return kept_ids, len(kept_ids) < len(names)

    def _side_owners(self) -> dict[str, Id]:
        """The contest's sides that hold a kept character, each with one of them."""
        owners: dict[str, Id] = {}
        if isinstance(self.rule, Contest):
            for side in self.rule.sides:
                ids = [cid for cid in (self._kept_id(m.name) for m in side.members) if cid]
                if ids:
                    owners[side.name] = ids[0]
        return owners

    def _kept_reroll(self, choice: str) -> bool:
        action, _, name = choice.partition(" ")
        return action == REROLL and self._kept_id(name) is not None

    def _share(self, outcome: Outcome, facts: dict[str, Any]) -> dict[str, Any]:
        """The facts of a shared rule's outcome without the kept characters' numbers."""
        if isinstance(outcome, ContestOutcome):
            sides = set(self._side_owners())
            return {
                "places": [
                    {**place, "successes": None} if sides & set(place["sides"]) else place
                    for place in facts["places"]
                ],
                "successes": {s: n for s, n in facts["successes"].items() if s not in sides},
                "omens_spent": {
                    name: n for name, n in facts["omens_spent"].items() if name not in self.kept
                },
            }
        if isinstance(outcome, GroupOutcome):
            shown = [sheet for sheet in facts["characters"] if sheet["name"] not in self.kept]
            return {**facts, "characters": shown}
        return facts

    def _settled_words(self, outcome: Outcome) -> str | None:
        """What the players read of a rule on kept characters alone, once settled: what
        happened to whom, never how it went; nothing of an activation's end (whether one was
        dying is its own)."""
        rule, names = self.rule, listed(self._rolling_names())
        if isinstance(rule, AbilityRoll | CollectiveRoll | ScoreRoll):
            assert isinstance(outcome, AbilityOutcome | GroupOutcome | ScoreOutcome)
            if not outcome.rolled and rule.level in GM_CALLS:
                return outcome_text(outcome)
            verb = "makes" if len(self._rolling_names()) == 1 else "make"
            return f"{names} {verb} a {rule.ability} roll"
        if isinstance(rule, Contest):
            return f"{names} contest {rule.ability}"
        if isinstance(rule, SufferHit):
            return f"{names} takes a hit"
        if isinstance(rule, RollDamage):
            return f"{names} rolls damage"
        if isinstance(rule, SufferCorruption):
            return f"{names} suffers corruption"
        if isinstance(rule, ChanceRoll):  # what for is the GM's to say
            return f"{names} makes a chance roll"
        if isinstance(rule, LoseAbility):
            return f"{names} loses {rule.amount} {rule.ability}"
        return None


def waiting(decision: Decision) -> str:
    """What a rule waits for, in words: the roll so far and who chooses what (CR-A10: the
    owner keeps a result, and whoever the die affects may spend an omen to re-roll it;
    CR-M19b: an omen saves from death; § Critical damage: the GM picks the item). Of a
    group's roll it says neither who holds an omen nor whether one still does: a member
    may be kept (CR-S04)."""
    chooser = decision.chooser
    if decision.kind == "destroy_item":
        return f"{decision.purpose}: {listed(decision.choices, 'or')}"
    if decision.kind == "death_save":
        return f"{decision.purpose}; {chooser} chooses"
    *earlier, latest = decision.results
    rolled = str(latest.total) if latest.one_die else latest.line
    if earlier:
        rolled = f"{listed([str(r.total) for r in earlier])}, then re-rolled: {rolled}"
    own = {c.partition(" ")[2] for c in decision.choices if c.startswith(f"{REROLL} ")} == {chooser}
    if not earlier and own:
        choice = f"{chooser} chooses whether to keep it or spend an omen to re-roll it"
    elif not earlier:
        choice = f"{chooser} keeps it, or one of them may spend an omen to re-roll it"
    else:
        choice = f"{chooser} chooses which result stands"
        choice += ", or spends another omen to re-roll it" if own else ""
    return f"{decision.purpose}: {rolled}; {choice}"


def outcome_text(outcome: Outcome) -> str:
    """What a rule settled, in one line."""
    if isinstance(outcome, ScoreOutcome | AbilityOutcome | GroupOutcome):
        return f"{_whose_roll(outcome)} {'passes' if outcome.passed else 'fails'}"
    if isinstance(outcome, ContestOutcome):
        return "ranking: " + "; ".join(" = ".join(place.sides) for place in outcome.places)
    if isinstance(outcome, DamageOutcome):
        return f"{outcome.character.name} deals {outcome.damage} damage"
    if isinstance(outcome, ChanceOutcome):
        return f"{outcome.character.name} rolls {outcome.result.total}"
    assert isinstance(outcome, HitOutcome | CorruptionOutcome | Survival)
    sheet = outcome.character
    state = f"dead ({sheet.death})" if sheet.death else f"health {sheet.health}"
    return f"{sheet.name}: {state} of {sheet.max_health}"


def _whose_roll(outcome: ScoreOutcome | AbilityOutcome | GroupOutcome) -> str:
    """Whose roll it was: "Ash's roll", "the roll of Ash and Bo"."""
    if isinstance(outcome, AbilityOutcome):
        names = [outcome.character.name]
    elif isinstance(outcome, GroupOutcome):
        names = [sheet.name for sheet in outcome.characters]
    else:
        names = list(outcome.omens_spent)
    if len(names) == 1:
        return f"{names[0]}'s roll"
    return f"the roll of {', '.join(names[:-1])} and {names[-1]}"


def _told(event: Event, visibility: Visibility, hint: str, audience: tuple[str, ...] = ()) -> Event:
    return event.model_copy(update={"visibility": visibility, "hint": hint, "audience": audience})


def _reaches_players(event: Event) -> bool:
    return event.visibility == Visibility.PUBLIC or bool(event.hint)


def answered(choice: str) -> str:
    """An answer as its button says it ("Keep result 1", "Re-roll with Ash's omen"),
    or the item the GM picks, by its name."""
    return words_of(__package__).value("answer", "choice", choice) or choice
