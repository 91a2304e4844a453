"""The d20 roll-under Core Rules at a shared table: characters, ability rolls and contests,
hits, corruption, death's door, time, carrying and the company, as intents, events and views.

A rule that stops for a decision (an omen re-roll, a death save, the GM's pick of an item)
waits in the table's `pending` resolution until whoever must answer sends an `answer`: the
player who owns the character, the asker for bare scores and a group's roll, the GM for the
GM's picks; the GM may answer anything. While it waits nothing else changes the table.

Secrets (docs/rules/rollunder.md, "At a shared table"): the GM's secret characters keep
their sheets from the players, who learn only that something happened to them; and every
roll has a mode, so the GM can roll in the open, for themselves, or blind.
"""

from __future__ import annotations

from typing import Any, get_args

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.npcs import (
    MAX_NPCS,
    EditNpc,
    NewNpc,
    RemoveNpc,
    RevealNpc,
    brought,
    changed,
    check_name,
    next_id,
    npc_view,
    removed,
    roster_offers,
    shown,
)
from tabletop.session import (
    Event,
    Member,
    Offer,
    RollMode,
    Session,
    Visibility,
    controls,
    hidden,
    note,
    owner_for,
)
from tabletop.systems.rollunder.abilities import (
    AbilityRoll,
    CollectiveRoll,
    GroupOutcome,
    Roller,
    ScoreOutcome,
    ScoreRoll,
)
from tabletop.systems.rollunder.carrying import Load, check_use, place, remove
from tabletop.systems.rollunder.character import Character, check_sheet, sheet_from
from tabletop.systems.rollunder.contests import Contest, ContestOutcome
from tabletop.systems.rollunder.corruption import (
    SufferCorruption,
    choose_mutation,
    load_mutation_table,
)
from tabletop.systems.rollunder.damage import (
    DamageDice,
    Hit,
    RollDamage,
    SufferHit,
    parse_damage,
)
from tabletop.systems.rollunder.death import bury, replace_character
from tabletop.systems.rollunder.dying import (
    EndOfActivation,
    LoseAbility,
    begin_activation,
)
from tabletop.systems.rollunder.errors import RollUnderError, validated
from tabletop.systems.rollunder.followers import (
    dismiss_follower,
    loyalty_roll,
    recruit_follower,
)
from tabletop.systems.rollunder.health import Changed, die, gain_ability, heal
from tabletop.systems.rollunder.intents import (
    INTENTS,
    AbilityRollIntent,
    Answer,
    BeginActivation,
    Bury,
    CastSpell,
    ChanceRollIntent,
    CharacterIntent,
    ChooseMutation,
    CollectiveRollIntent,
    ContestIntent,
    Die,
    DismissFollower,
    Downtime,
    DropItem,
    EndActivation,
    GainAbility,
    Heal,
    ImportCharacter,
    LoseAbilityIntent,
    LoyaltyRollIntent,
    RecruitFollower,
    ReplaceCharacter,
    RevealCharacter,
    RollDamageIntent,
    RuleIntent,
    SaveFromDeath,
    ScoreRollIntent,
    SetCarryLimit,
    SetMutationTable,
    Stretch,
    SufferCorruptionIntent,
    SufferHitIntent,
    TakeItem,
    UseItem,
)
from tabletop.systems.rollunder.offers import (
    decider,
    table_offers,
    why_not,
)
from tabletop.systems.rollunder.omens import (
    ChanceRoll,
    cast_sacred_spell,
    save_from_death,
)
from tabletop.systems.rollunder.records import Event as RulesEvent
from tabletop.systems.rollunder.records import EventKind
from tabletop.systems.rollunder.recovery import downtime, stretch
from tabletop.systems.rollunder.resolution import (
    Decision,
    Intent,
    Outcome,
    Replay,
    Resolution,
)
from tabletop.systems.rollunder.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.rollunder.sheet_edits import (
    RenameCharacter,
    SheetEdit,
    derived,
    edit,
    renamed,
)
from tabletop.systems.rollunder.table import (
    Id,
    Pending,
    RollUnderTable,
    Seat,
    with_company,
    with_sheets,
)
from tabletop.systems.rollunder.table_npcs import (
    NpcStats,
    edited,
    example,
    npc_sheet,
    stat_names,
    statblock,
    stats_view,
)
from tabletop.systems.rollunder.telling import Telling

RULES_KINDS = frozenset(get_args(EventKind))
"""Event types that carry one of the rules' own events (see `rules_events`)."""

# the session ------------------------------------------------------------------------------


class RollUnderSession(Session[RollUnderTable]):
    name = "rollunder"
    version = 2
    state = RollUnderTable
    error = RollUnderError
    intents = (*INTENTS, *SHEET_INTENTS, NewNpc[NpcStats], EditNpc, RemoveNpc, RevealNpc)
    explained = frozenset(
        {
            *(intent.model_fields["kind"].default for intent in SHEET_INTENTS),
            *("take-item", "drop-item", "use-item", "cast-spell"),
        }
    )

    # what each member may ask for ---------------------------------------------------------

    def offers(self, state: RollUnderTable, member: Member) -> list[Offer]:
        if state.pending is not None:
            return self._answer_offers(state, state.pending, member)
        found = table_offers(state, member)
        if member.is_gm:
            listed = [(cid, not s.secret) for cid, s in state.characters.items() if s.npc]
            options = state.options
            found += roster_offers(listed, stat_names(options), example(options))
        return found

    def _answer_offers(
        self, state: RollUnderTable, pending: Pending, member: Member
    ) -> list[Offer]:
        decision = pending.resolution.decision
        assert decision is not None  # a finished rule is never left pending
        if not (member.is_gm or self._sees_decision(state, pending, decision, member)):
            return []
        allowed = tuple(
            {"kind": "answer", "choice": choice}
            for choice in decision.choices
            if member.is_gm or decider(state, pending, decision, choice) == member.id
        )
        return [Offer(kind="answer", text=decision.purpose, intents=allowed)] if allowed else []

    def why_not(self, state: RollUnderTable, intent: Any, member: Member) -> str:
        return why_not(state, intent)

    def refusal(self, state: RollUnderTable, intent: Any, member: Member) -> str | None:
        """While a decision waits, that is the reason for everything else (CR-S03)."""
        return None if state.pending is not None else super().refusal(state, intent, member)

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: RollUnderTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[RollUnderTable, list[Event]]:
        if isinstance(intent, Answer):
            return self._answer(state, intent, member, dice)
        if isinstance(intent, NewNpc | EditNpc | RemoveNpc | RevealNpc):
            return self._npcs(state, intent, member)
        if isinstance(intent, RuleIntent):
            rule, taking_part = self._rule(state, intent, member)
            mode = getattr(intent, "mode", RollMode.PUBLIC)
            telling = Telling.of(state, member, rule, taking_part, mode)
            resolution, where = Resolution.start(rule, dice, state.options, telling.rolling)
            pending = Pending(
                resolution=resolution, asker=member.id, mode=mode, characters=taking_part
            )
            after, told = self._advanced(state, pending, where, member, dice)
            opening = [telling.opening(rule)] if isinstance(rule, Contest) else []
            return after, [*opening, *told]
        if isinstance(intent, CharacterIntent):
            return self._join(state, intent, member)
        if isinstance(intent, RenameCharacter):
            old = state.sheet(intent.character).name
            members, told = renamed(state.company.members, old, intent.name)
            state = _with_members(state, members)
            return state, self._told(state, member, (told,))
        if isinstance(intent, SheetEdit):
            changed = edit(state.sheet(intent.character), intent, state.options)
            after = with_sheets(state, (changed.character,))
            return after, self._told(state, member, changed.events, changed.character.name)
        if isinstance(intent, EndActivation):
            return self._end_activation(state, member, dice)
        if isinstance(intent, RecruitFollower | DismissFollower | Bury | ReplaceCharacter):
            return self._company(state, intent, member)
        return self._plain(state, intent, member)

    def _rule(
        self, state: RollUnderTable, intent: Any, member: Member
    ) -> tuple[Intent, dict[str, Id]]:
        """The rules' intent for a session intent, on the table's sheets, and the characters
        it runs on by name."""
        options = state.options
        if isinstance(intent, ScoreRollIntent):
            data = {"rollers": intent.rollers, "ability": intent.ability, "level": intent.level}
            return validated(ScoreRoll, data, "the roll"), {}
        if isinstance(intent, CollectiveRollIntent | ContestIntent):
            ids = _taking_part(intent)
            _check_controls(state, ids, member)
            if len(set(ids)) != len(ids):
                raise RollUnderError("each character takes part once")
            names = {state.sheet(cid).name: cid for cid in ids}
            if isinstance(intent, CollectiveRollIntent):
                sheets = [state.sheet(cid) for cid in ids]
                data = {"characters": sheets, "ability": intent.ability, "level": intent.level}
                return validated(CollectiveRoll, data, "the collective roll"), names
            return _contest(state, intent), names
        if isinstance(intent, LoyaltyRollIntent):
            follower = state.sheet(intent.follower)
            rule = loyalty_roll(state.company, follower.name, options, intent.level)
            return rule, {rule.character.name: state.id_of(rule.character.name)}
        cid = intent.character
        sheet = state.sheet(cid)
        taking_part = {sheet.name: cid}
        if isinstance(intent, AbilityRollIntent):
            rule = AbilityRoll(character=sheet, ability=intent.ability, level=intent.level)
            return rule, taking_part
        if isinstance(intent, SufferHitIntent):
            damage = parse_damage(intent.damage)
            hit: dict[str, Any] = {"armour": intent.armour, "direct": intent.direct}
            hit |= {"dice": damage} if isinstance(damage, DamageDice) else {"amount": damage}
            return SufferHit(character=sheet, hit=validated(Hit, hit, "the hit")), taking_part
        if isinstance(intent, RollDamageIntent):
            return RollDamage(character=sheet, dice=DamageDice.parse(intent.damage)), taking_part
        if isinstance(intent, SufferCorruptionIntent):
            rule = SufferCorruption(
                character=sheet, gain=intent.gain, mutation_table=state.mutation_table
            )
            return rule, taking_part
        if isinstance(intent, ChanceRollIntent):
            data = {"character": sheet, "expression": intent.expression, "purpose": intent.purpose}
            return validated(ChanceRoll, data, "the chance roll"), taking_part
        assert isinstance(intent, LoseAbilityIntent)
        rule = LoseAbility(character=sheet, ability=intent.ability, amount=intent.amount)
        return rule, taking_part

    def _answer(
        self, state: RollUnderTable, intent: Answer, member: Member, dice: DiceSource
    ) -> tuple[RollUnderTable, list[Event]]:
        pending = state.pending
        assert pending is not None  # only offered while a decision is open
        decision = pending.resolution.decision
        assert decision is not None
        telling = Telling.at(state, member, pending)
        said = telling.answer(member.name or member.id, intent.choice, decision.chooser)
        resolution, where = pending.resolution.answer(intent.choice, dice, telling.rolling)
        pending = pending.model_copy(update={"resolution": resolution})
        state, events = self._advanced(state, pending, where, member, dice)
        return state, [said, *events]

    def _advanced(
        self,
        state: RollUnderTable,
        pending: Pending,
        where: Replay,
        member: Member,
        dice: DiceSource,
    ) -> tuple[RollUnderTable, list[Event]]:
        """Tell what the rule did since the last step; then hold it at its decision, or write
        its outcome back and run the next rule in the queue."""
        told: list[Event] = []
        while True:
            telling = Telling.at(state, member, pending)
            told += telling.rules(where.events[pending.told :])
            if where.decision is not None:
                told.append(telling.decision(where.decision))
                held = pending.model_copy(update={"told": len(where.events)})
                return state.model_copy(update={"pending": held}), told
            assert where.outcome is not None
            state = with_sheets(state, _sheets(state, pending, where.outcome))
            told.append(telling.outcome(where.outcome))
            if not pending.queue:
                return state.model_copy(update={"pending": None}), told
            nxt, rest = pending.queue[0], pending.queue[1:]
            facing = {state.sheet(nxt).name: nxt}
            rule = EndOfActivation(character=state.sheet(nxt), actor=pending.actor or "")
            rolling = Telling.of(state, member, rule, facing, pending.mode, pending.asker).rolling
            resolution, where = Resolution.start(rule, dice, state.options, rolling)
            pending = pending.model_copy(
                update={"resolution": resolution, "characters": facing, "told": 0, "queue": rest}
            )

    def _end_activation(
        self, state: RollUnderTable, member: Member, dice: DiceSource
    ) -> tuple[RollUnderTable, list[Event]]:
        """Everyone whose deadline was this activation faces death, one after another."""
        actor = state.activation or ""
        ended = note("activation", f"{actor}'s activation ends", actor=actor, begins=False)
        state = state.model_copy(update={"activation": None})
        facing = tuple(
            cid
            for cid, seat in state.characters.items()
            if seat.sheet.at_deaths_door and seat.sheet.deadline_started
        )
        if not facing:
            return state, [ended]
        first = {state.sheet(facing[0]).name: facing[0]}
        rule = EndOfActivation(character=state.sheet(facing[0]), actor=actor)
        rolling = Telling.of(state, member, rule, first).rolling
        resolution, where = Resolution.start(rule, dice, state.options, rolling)
        pending = Pending(
            resolution=resolution, asker=member.id, characters=first, queue=facing[1:], actor=actor
        )
        state, told = self._advanced(state, pending, where, member, dice)
        return state, [ended, *told]

    def _join(
        self, state: RollUnderTable, intent: CharacterIntent, member: Member
    ) -> tuple[RollUnderTable, list[Event]]:
        owner = owner_for(intent.owner, member)
        if intent.secret and owner != member.id:
            raise RollUnderError("a secret character is the GM's own")
        if isinstance(intent, ImportCharacter):
            sheet = sheet_from(intent.sheet)
        else:
            data = intent.model_dump(exclude={"kind", "owner", "secret"})
            data["health"] = intent.max_health if intent.health is None else intent.health
            data["max_omens"] = intent.omens if intent.max_omens is None else intent.max_omens
            sheet = sheet_from(data, "the character")
        sheet = check_sheet(sheet, state.options)
        company = state.company.with_members((*state.company.members, sheet))
        state = with_company(state, company, owner, intent.secret)
        cid = state.id_of(sheet.name)
        facts = {"character": cid, "owner": owner, "name": sheet.name, "secret": intent.secret}
        if not intent.secret:
            joined = note("joined", f"{sheet.name} joins the table", **facts, sheet=_dump(sheet))
            return state, [joined]
        joined = note("joined", f"the GM brings {sheet.name} to the table", **facts)
        kept = Event(
            type="sheet",
            text=f"{sheet.name}'s sheet, kept from the players",
            data={"character": cid, "sheet": _dump(sheet)},
            visibility=Visibility.GM,
        )
        return state, [joined, kept]

    def _npcs(
        self,
        state: RollUnderTable,
        intent: NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc,
        member: Member,
    ) -> tuple[RollUnderTable, list[Event]]:
        """The GM's monsters: typed in, changed, taken away, shown or hidden (CR-N02)."""
        names = [seat.sheet.name for seat in state.characters.values()]
        options = state.options
        if isinstance(intent, NewNpc):
            if sum(seat.npc for seat in state.characters.values()) >= MAX_NPCS:
                raise RollUnderError(f"a table keeps at most {MAX_NPCS} NPCs")
            check_name(intent.name, names, RollUnderError)
            sheet = npc_sheet(intent.name, intent.stats, options)
            state.company.with_members((*state.company.members, sheet))  # its rules hold
            nid, counter = next_id(state.characters, state.next_npc)
            seat = Seat(owner=member.id, sheet=sheet, secret=True, npc=True)
            seats = {**state.characters, nid: seat}
            after = state.model_copy(update={"characters": seats, "next_npc": counter})
            return after, brought(nid, sheet.name, statblock(sheet), None)
        seat = state.characters.get(intent.npc)
        if seat is None or not seat.npc:
            raise RollUnderError(f"no NPC {intent.npc!r} at this table")
        name = seat.sheet.name
        if isinstance(intent, RemoveNpc):
            rest = {cid: s for cid, s in state.characters.items() if cid != intent.npc}
            return state.model_copy(update={"characters": rest}), [removed(intent.npc, name)]
        if isinstance(intent, RevealNpc):
            now = seat.model_copy(update={"secret": not intent.revealed})
            told = shown(intent.npc, name, intent.revealed, stats_view(seat.sheet))
            seats = {**state.characters, intent.npc: now}
            return state.model_copy(update={"characters": seats}), [told]
        if intent.stat == "name":  # as rename-character: its followers follow the new name
            check_name(intent.value.strip(), [n for n in names if n != name], RollUnderError)
            edited(seat.sheet, intent, options)  # a name its sheet may hold
            members, _ = renamed(state.company.members, name, intent.value)
            after = _with_members(state, members)
            new = after.sheet(intent.npc).name
            return after, changed(intent.npc, name, intent.stat, new, not seat.secret)
        sheet = edited(seat.sheet, intent, options)
        value = str(sheet.abilities.get(intent.stat, getattr(sheet, intent.stat, None)))
        seats = {**state.characters, intent.npc: seat.model_copy(update={"sheet": sheet})}
        after = state.model_copy(update={"characters": seats})
        return after, changed(intent.npc, name, intent.stat, value, not seat.secret)

    def _company(
        self, state: RollUnderTable, intent: Any, member: Member
    ) -> tuple[RollUnderTable, list[Event]]:
        """Followers, burial and replacement: the company rules on every seat's sheet."""
        company = state.company
        if isinstance(intent, RecruitFollower):
            seat = state.seat(intent.leader)
            follower = check_sheet(sheet_from(intent.sheet, "the follower"), state.options)
            company, events = recruit_follower(company, seat.sheet.name, follower)
            state = with_company(state, company, seat.owner, seat.secret)
            told = self._told(state, member, events)
            if seat.secret:  # a secret follower's name is public, as every character's is
                cid = state.id_of(follower.name)
                told.append(
                    note("joined", f"the GM brings {follower.name} to the table", character=cid)
                )
            return state, told
        if isinstance(intent, DismissFollower):
            left = state.seat(intent.follower)
            company, events = dismiss_follower(company, left.sheet.name)
            told = self._told(state, member, events)  # told while they are still at the table
            return with_company(state, company, member.id), told
        seat = state.seat(intent.dead)
        if isinstance(intent, Bury):
            payment = None
            if intent.payment is not None:
                payment = {state.sheet(cid).name: paid for cid, paid in intent.payment.items()}
            company, events = bury(company, seat.sheet, intent.remains_retrieved, payment)
            state = with_company(state, company, member.id)
            seats = {**state.characters, intent.dead: seat.model_copy(update={"buried": True})}
            settled = note("buried", f"{seat.sheet.name}'s burial is settled", dead=intent.dead)
            told = self._told(state, member, events)
            return state.model_copy(update={"characters": seats}), [*told, settled]
        newcomer = check_sheet(sheet_from(intent.sheet, "the replacement"), state.options)
        company, events = replace_character(company, seat.sheet.name, newcomer, state.options)
        state = with_company(state, company, seat.owner, seat.secret)
        return state, self._told(state, member, events)

    def _plain(
        self, state: RollUnderTable, intent: Any, member: Member
    ) -> tuple[RollUnderTable, list[Event]]:
        """Rules with no decision in them: what they do to the sheets, told."""
        options = state.options
        if isinstance(intent, SetMutationTable):
            table = None if intent.table is None else load_mutation_table(intent.table)
            name = table["name"] if table else "none: the GM chooses"
            told = note("mutation-table", f"the mutation table: {name}", table=table)
            return state.model_copy(update={"mutation_table": table}), [told]
        if isinstance(intent, BeginActivation):
            changes = [
                begin_activation(s.sheet, intent.actor, options) for s in state.characters.values()
            ]
            state = _changed(state, changes).model_copy(update={"activation": intent.actor})
            began = note("activation", f"{intent.actor}'s activation begins", actor=intent.actor)
            return state, [began, *self._told(state, member, _events(changes))]
        if isinstance(intent, Stretch | Downtime):
            rule = stretch if isinstance(intent, Stretch) else downtime
            changes = [rule(seat.sheet) for seat in state.characters.values()]
            word = "the next stretch begins" if isinstance(intent, Stretch) else "downtime"
            told = note(intent.kind, word)
            return _changed(state, changes), [told, *self._told(state, member, _events(changes))]
        if isinstance(intent, RevealCharacter):
            seat = state.seat(intent.character)
            seats = {
                **state.characters,
                intent.character: seat.model_copy(update={"secret": False}),
            }
            shown = note(
                "revealed",
                f"the GM shows {seat.sheet.name}'s sheet",
                character=intent.character,
                sheet=_dump(seat.sheet),
            )
            return state.model_copy(update={"characters": seats}), [shown]
        sheet = state.sheet(intent.character)
        changed = self._sheet_rule(state, sheet, intent)
        told = self._told(state, member, changed.events, sheet.name)
        return with_sheets(state, (changed.character,)), told

    def _sheet_rule(self, state: RollUnderTable, sheet: Character, intent: Any) -> Changed:
        """One character's sheet changed by a rule that needs no dice and no decision."""
        options = state.options
        if isinstance(intent, GainAbility):
            return gain_ability(sheet, intent.ability, intent.amount)
        if isinstance(intent, Heal):
            return heal(sheet, intent.amount)
        if isinstance(intent, SaveFromDeath):
            return save_from_death(sheet, options)
        if isinstance(intent, CastSpell):
            return cast_sacred_spell(sheet, intent.spell)
        if isinstance(intent, Die):
            return die(sheet, intent.cause)
        if isinstance(intent, ChooseMutation):
            return choose_mutation(sheet, intent.mutation)
        if isinstance(intent, SetCarryLimit):
            held = sheet.load.model_dump() if sheet.load else {}
            data = {**held, "carry_limit": intent.carry_limit}
            load = validated(Load, data, f"{sheet.name}'s load")
            text = f"{sheet.name} can carry bulk {intent.carry_limit}"
            event = RulesEvent.about(sheet.name, "carrying", text, carry_limit=intent.carry_limit)
            return Changed(sheet.with_changes(load=load), (event,))
        if sheet.load is None:
            raise RollUnderError(f"{sheet.name} has no carry limit yet: set one first")
        if isinstance(intent, TakeItem):
            load = place(sheet.load, intent.item, intent.where, options)
            text = f"{sheet.name} takes {intent.item.name} ({intent.where})"
            event = RulesEvent.about(sheet.name, "carrying", text, item=intent.item.name)
            return Changed(sheet.with_changes(load=load), (event,))
        if isinstance(intent, DropItem):
            load, item = remove(sheet.load, intent.item, intent.where)
            text = f"{sheet.name} puts down {item.name}"
            event = RulesEvent.about(sheet.name, "carrying", text, item=item.name)
            return Changed(sheet.with_changes(load=load), (event,))
        assert isinstance(intent, UseItem)
        item = check_use(sheet.load, intent.item, options)
        event = RulesEvent.about(sheet.name, "carrying", f"{sheet.name} uses {item.name}")
        return Changed(sheet, (event,))

    def _told(
        self,
        state: RollUnderTable,
        member: Member,
        events: tuple[RulesEvent, ...],
        changed: str | None = None,
    ) -> list[Event]:
        """The events of a rule that needs no decision, told as a public step (`changed`:
        the one character it changes, if it is about one)."""
        return Telling.at(state, member).rules(events, changed)

    # what each member sees ----------------------------------------------------------------

    def view(self, state: RollUnderTable, member: Member) -> dict[str, Any]:
        return {
            "system": self.name,
            "options": state.options.model_dump(mode="json"),
            "mutation_table": state.mutation_table,
            "activation": state.activation,
            "characters": [
                {
                    "id": cid,
                    "owner": seat.owner,
                    "name": seat.sheet.name,
                    "secret": seat.secret,
                    "buried": seat.buried,
                    "npc": seat.npc,
                    "sheet": _dump(seat.sheet)
                    if member.is_gm or not seat.secret
                    else hidden("a sheet the GM keeps secret"),
                    "derived": derived(seat.sheet, state.options)
                    if member.is_gm or not seat.secret
                    else hidden("what a secret sheet adds up to"),
                }
                for cid, seat in state.characters.items()
            ],
            "pending": self._pending_view(state, member),
            "npcs": [
                npc_view(cid, s.sheet.name, not s.secret, None, stats_view(s.sheet), member)
                for cid, s in state.characters.items()
                if s.npc
            ],
        }

    def kept_from_players(self, state: RollUnderTable) -> dict[str, str]:
        """The GM's secret characters, NPCs the GM has not shown among them (CR-S04, CR-N02)."""
        return {cid: seat.sheet.name for cid, seat in state.characters.items() if seat.secret}

    def _pending_view(self, state: RollUnderTable, member: Member) -> dict[str, Any] | None:
        pending = state.pending
        if pending is None:
            return None
        decision = pending.resolution.decision
        assert decision is not None
        if member.is_gm:
            seen: dict[str, Any] = decision.model_dump(mode="json")
        elif self._sees_decision(state, pending, decision, member):
            seen = Telling.at(state, member, pending).decision_view(decision)
        else:
            seen = hidden("a decision on a roll kept from you")
        shown: dict[str, Any] = {
            "asked_by": pending.asker,
            "mode": pending.mode.value,
            "queue": list(pending.queue),
            "decision": seen,
        }
        if member.is_gm:
            shown["resolution"] = pending.resolution.model_dump(mode="json")
        return shown

    def _sees_decision(
        self, state: RollUnderTable, pending: Pending, decision: Decision, member: Member
    ) -> bool:
        return Telling.at(state, member, pending).shows(decision, member)

    # for clients ----------------------------------------------------------------------------

    def decision(self, state: RollUnderTable) -> Decision | None:
        """The decision the table waits for, if any (what `answer` intents choose from)."""
        return None if state.pending is None else state.pending.resolution.decision


# helpers ----------------------------------------------------------------------------------


def rules_events(events: list[Event]) -> tuple[RulesEvent, ...]:
    """The rules' own events among a table's events seen in full, as the rules wrote them
    (what the command line prints)."""
    return tuple(
        RulesEvent(kind=e.type, text=e.text, **e.data)  # type: ignore[arg-type]
        for e in events
        if e.type in RULES_KINDS
    )


def outcome_of(events: list[Event]) -> dict[str, Any] | None:
    """The outcome of the last rule settled among these events (JSON data), if any."""
    settled = [e for e in events if e.type == "outcome"]
    return settled[-1].data["outcome"] if settled else None


def _check_controls(state: RollUnderTable, ids: tuple[Id, ...], member: Member) -> None:
    for cid in ids:
        seat = state.seat(cid)
        if not controls(member, seat.owner):
            raise PermissionDenied(f"{seat.sheet.name} is not yours to roll for; the GM may")


def _taking_part(intent: CollectiveRollIntent | ContestIntent) -> tuple[Id, ...]:
    if isinstance(intent, CollectiveRollIntent):
        return intent.characters
    return tuple(cid for side in intent.sides for cid in side.characters)


def _contest(state: RollUnderTable, intent: ContestIntent) -> Contest:
    """The rules' contest: each character rolls with their sheet's score, omens and load."""
    sides = [
        {
            "name": side.name,
            "members": [
                *(
                    Roller.of(state.sheet(cid), intent.ability, state.options)
                    for cid in side.characters
                ),
                *side.scores,
            ],
        }
        for side in intent.sides
    ]
    data = {"ability": intent.ability, "sides": sides, "rolls": intent.rolls}
    return validated(Contest, data, "the contest")


def _sheets(state: RollUnderTable, pending: Pending, outcome: Outcome) -> tuple[Character, ...]:
    """The sheets a settled rule leaves: its characters as it ends, or the omens each
    contestant spent re-rolling."""
    if isinstance(outcome, GroupOutcome):
        return outcome.characters
    if isinstance(outcome, ContestOutcome):
        return tuple(
            sheet.with_changes(omens=sheet.omens - outcome.omens_spent[name])
            for name, cid in pending.characters.items()
            if outcome.omens_spent.get(name)
            for sheet in (state.sheet(cid),)
        )
    if isinstance(outcome, ScoreOutcome):
        return ()
    return (outcome.character,)


def _changed(state: RollUnderTable, changes: list[Changed]) -> RollUnderTable:
    return with_sheets(state, tuple(change.character for change in changes))


def _events(changes: list[Changed]) -> tuple[RulesEvent, ...]:
    return tuple(event for change in changes for event in change.events)


def _dump(sheet: Character) -> dict[str, Any]:
    return sheet.model_dump(mode="json")


SESSION = RollUnderSession()


def _with_members(state: RollUnderTable, members: tuple[Character, ...]) -> RollUnderTable:
    """The table with every seat's sheet replaced by the company member in its place (a
    rename: the company keeps the seats' order)."""
    seats = {
        cid: seat.model_copy(update={"sheet": sheet})
        for (cid, seat), sheet in zip(state.characters.items(), members, strict=True)
    }
    return state.model_copy(update={"characters": seats})
