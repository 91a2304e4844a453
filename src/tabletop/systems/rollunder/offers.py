"""What each member may ask for at a roll-under table, while no decision is open.

Enumerated fields list exactly the values allowed now (the characters this member plays,
the table's abilities); the rest are free with an example. Who plays whom: the owner of a
character or the GM (CR-S02); the GM alone moves time and makes the GM's calls.
"""

from __future__ import annotations

from typing import Any, get_args

from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import Member, RollMode, controls
from tabletop.systems.rollunder.abilities import ChallengeLevel
from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.followers import MAX_FOLLOWERS, MAX_MEMBERS
from tabletop.systems.rollunder.intents import DropItem, UseItem
from tabletop.systems.rollunder.omens import omens_to_save
from tabletop.systems.rollunder.resolution import REROLL, Decision
from tabletop.systems.rollunder.sheet_edits import sheet_offers
from tabletop.systems.rollunder.table import Id, Pending, RollUnderTable

LEVELS = get_args(ChallengeLevel)
"""The GM estimates the challenge level (§ Challenge Levels); a player's rolls are
challenging (CR-S05)."""
SET_LEVEL = Choice(values=("challenging",), fixed="set by the GM")
"""The level of a roll whose roller does not set it: challenging, as the GM estimates it
(CR-S05), shown on the roller's form as the GM's."""
MODES = Choice(values=tuple(RollMode))
CONTEST_SIDES = [
    {"name": "us", "scores": [{"name": "Hero", "score": 10}]},
    {"name": "them", "scores": [{"name": "Rival", "score": 10}]},
]
"""A contest's sides as its form starts: nobody at the table ticked (issue 30: a character
rolled for a side nobody put them on), a bare score on each side for whoever sets them."""
PLACES = ("held", "worn", "stored")


def table_offers(state: RollUnderTable, member: Member) -> list[Offer]:
    """Everything `member` may ask for at a table that waits for no decision."""
    found = _joining_offers(state, member)
    found += _roll_offers(state, member)
    found += _sheet_offers(state, member)
    for cid in played_by(state, member):
        found += sheet_offers(cid, state.sheet(cid), state.options, levels(state, member))
    found += _company_offers(state, member)
    if member.is_gm:
        found += _gm_offers(state)
    return found


def _joining_offers(state: RollUnderTable, member: Member) -> list[Offer]:
    if len(state.characters) >= MAX_MEMBERS:
        return []
    owner = Choice(help="who plays them", example=None)
    if not member.is_gm:
        owner = Choice(values=(None, member.id))
    secret = Choice(values=(False, True) if member.is_gm else (False,))
    scores = {ability: 10 for ability in state.options.abilities}
    return [
        offer(
            "new-character",
            "write down a character's scores",
            name=Choice(help="the character's name", example="Ash"),
            abilities=Choice(help="every ability's score", example=scores),
            max_health=Choice(help="maximum health", example=10),
            owner=owner,
            secret=secret,
        ),
        offer(
            "import-character",
            "bring a saved sheet",
            sheet=Choice(help="the sheet"),
            owner=owner,
            secret=secret,
        ),
    ]


def _roll_offers(state: RollUnderTable, member: Member) -> list[Offer]:
    abilities = Choice(values=state.options.abilities)
    sets = sets_difficulty(state, member)
    level = levels(state, member)
    found = []
    if sets:
        found.append(
            offer(
                "score-roll",
                "an ability roll against bare scores",
                rollers=Choice(help="names and scores", example=[{"name": "Rival", "score": 10}]),
                level=level,
                mode=MODES,
            )
        )
    able = living(state, played_by(state, member))
    if sets or len(able) >= 2:  # two sides, each with someone the member may enter
        found.append(
            offer(
                "contest",
                "an ability contest",
                ability=abilities,
                sides=Choice(
                    help="each side's characters at the table"
                    + (" and bare scores" if sets else ""),
                    example=CONTEST_SIDES if sets else [{"name": "us"}, {"name": "them"}],
                ),
                rolls=Choice(help="rolls each", example=4),
                mode=MODES,
            )
        )
    if not able:
        return found
    character = Choice(values=able)
    found += [
        offer(
            "ability-roll",
            "an ability roll",
            character=character,
            ability=abilities,
            level=level,
            mode=MODES,
        ),
        offer(
            "collective-roll",
            "one d20 for a group",
            characters=Choice(help="who rolls together", example=list(able[:2])),
            ability=abilities,
            level=level,
            mode=MODES,
        ),
        offer(
            "roll-damage",
            "roll the damage dealt",
            character=character,
            damage=Choice(help="damage dice", example="d8"),
            mode=MODES,
        ),
        offer(
            "chance-roll",
            "a roll left to chance",
            character=character,
            expression=Choice(help="dice", example="1d6"),
            purpose=Choice(help="what it is for", example="a chance roll"),
            mode=MODES,
        ),
    ]
    if sets:
        found += [
            offer(
                "suffer-hit",
                "take a hit",
                character=character,
                damage=Choice(help="damage dice or a fixed amount", example="d6"),
                armour=Choice(help="armour value", example=0),
                direct=Choice(values=(False, True)),
                mode=MODES,
            ),
            offer(
                "suffer-corruption",
                "suffer corruption",
                character=character,
                gain=Choice(help="corruption gained", example=1),
                mode=MODES,
            ),
        ]
    loyal = tuple(
        cid
        for cid in played_by(state, member)
        if _follower_with_roller(state, cid, state.options.loyalty_roller)
    )
    if loyal:
        found.append(
            offer(
                "loyalty-roll",
                "a WIT roll for a follower's loyalty",
                follower=Choice(values=loyal),
                level=level,
                mode=MODES,
            )
        )
    return found


def _sheet_offers(state: RollUnderTable, member: Member) -> list[Offer]:
    mine = played_by(state, member)
    able = living(state, mine)
    found: list[Offer] = []
    if able and sets_difficulty(state, member):
        character = Choice(values=able)
        abilities = Choice(values=state.options.abilities)
        found += [
            offer(
                "lose-ability",
                "lose ability points",
                character=character,
                ability=abilities,
                amount=Choice(help="points", example=1),
            ),
            offer(
                "gain-ability",
                "gain ability points",
                character=character,
                ability=abilities,
                amount=Choice(help="points", example=1),
            ),
            offer("heal", "heal", character=character, amount=Choice(help="health", example=2)),
        ]
    if able:
        found += [
            offer(
                "set-carry-limit",
                "set the carry limit",
                character=Choice(values=able),
                carry_limit=Choice(help="most bulk carried", example=10),
            ),
        ]
    loaded = tuple(cid for cid in able if state.sheet(cid).load is not None)
    if loaded:
        found.append(
            offer(
                "take-item",
                "carry an item",
                character=Choice(values=loaded),
                item=Choice(help="name, bulk, kind", example={"name": "rope", "bulk": 1}),
                where=Choice(values=PLACES),
            )
        )
    casters = tuple(cid for cid in able if state.sheet(cid).omens >= 1)
    if casters:
        found.append(
            offer(
                "cast-spell",
                "spend an omen on a sacred spell",
                character=Choice(values=casters),
                spell=Choice(help="the spell's name", example="Blessing"),
            )
        )
    savable = tuple(cid for cid in able if _may_be_saved(state, cid))
    if savable:
        found.append(
            offer("save-from-death", "spend an omen to live", character=Choice(values=savable))
        )
    for kind, text, items in (  # using an item before putting it down, as a player reads
        ("use-item", "use a held item", _held),
        ("drop-item", "put an item down", _carried),
    ):
        made = closed_offer(
            kind,
            text,
            [
                DropItem(character=cid, item=name)
                if kind == "drop-item"
                else UseItem(character=cid, item=name)
                for cid in able
                for name in items(state.sheet(cid))
            ],
        )
        if made is not None:
            found.append(made)
    return found


def _company_offers(state: RollUnderTable, member: Member) -> list[Offer]:
    mine = played_by(state, member)
    found: list[Offer] = []
    leaders = tuple(
        cid
        for cid in living(state, mine)
        if state.sheet(cid).leader is None
        and len(state.company.followers_of(state.sheet(cid).name)) < MAX_FOLLOWERS
    )
    if leaders and len(state.characters) < MAX_MEMBERS:
        found.append(
            offer(
                "recruit-follower",
                "take on a follower",
                leader=Choice(values=leaders),
                sheet=Choice(help="the follower's sheet"),
            )
        )
    followers = tuple(cid for cid in mine if state.sheet(cid).leader is not None)
    if followers:
        found.append(
            offer("dismiss-follower", "let a follower go", follower=Choice(values=followers))
        )
    fallen = tuple(cid for cid in mine if _player_character(state, cid, dead=True))
    replaceable = tuple(cid for cid in fallen if state.seat(cid).buried)
    if replaceable and len(state.characters) <= MAX_MEMBERS:
        found.append(
            offer(
                "replace-character",
                "bring a new character in place of a dead one",
                dead=Choice(values=replaceable),
                sheet=Choice(help="the new character's sheet"),
            )
        )
    return found


def _gm_offers(state: RollUnderTable) -> list[Offer]:
    everyone = tuple(state.characters)
    alive_now = living(state, everyone)
    found = [
        offer(
            "set-mutation-table",
            "set the mutation table",
            table=Choice(help="a table file's data, or none", example=None),
        )
    ]
    if alive_now:
        found.append(offer("die", "a character dies", character=Choice(values=alive_now)))
    mutants = tuple(cid for cid in alive_now if state.sheet(cid).mutations_to_choose > 0)
    if mutants:
        found.append(
            offer(
                "choose-mutation",
                "choose a mutation",
                character=Choice(values=mutants),
                mutation=Choice(help="its name", example="Third arm"),
            )
        )
    unburied = tuple(
        cid
        for cid in everyone
        if _player_character(state, cid, dead=True) and not state.seat(cid).buried
    )
    if unburied:
        found.append(
            offer(
                "bury",
                "settle a burial",
                dead=Choice(values=unburied),
                remains_retrieved=Choice(values=(True, False)),
                payment=Choice(help="coins by character id, or none", example=None),
            )
        )
    secret = tuple(cid for cid in everyone if state.seat(cid).secret and not state.seat(cid).npc)
    if secret:
        found.append(
            offer("reveal-character", "show a secret sheet", character=Choice(values=secret))
        )
    if state.activation is None:
        found.append(
            offer(
                "begin-activation",
                "an activation begins",
                actor=Choice(
                    help="whose", example=_first_name(state), names=_names(state, alive_now)
                ),
            )
        )
    else:
        found.append(offer("end-activation", f"{state.activation}'s activation ends"))
    if everyone:
        found += [offer("stretch", "the next stretch"), offer("downtime", "downtime")]
    return found


def why_not(state: RollUnderTable, intent: dict[str, Any]) -> str:
    """Why an intent of a kind not offered now is refused, as plainly as the table can say."""
    kind = intent["kind"]
    if state.pending is not None and kind != "answer":
        decision = state.pending.resolution.decision
        purpose = decision.purpose if decision else "a rule"
        return f"the table waits for a decision first ({purpose})"
    if kind == "answer":
        decision = state.pending.resolution.decision if state.pending else None
        if decision is None:
            return "no decision is open"
        if intent.get("choice") not in decision.choices:
            return f"{decision.purpose}: choose one of {', '.join(decision.choices)}"
        return "that choice is not yours to make"
    cid = intent.get("character") or intent.get("dead") or intent.get("leader")
    if not (isinstance(cid, str) and cid in state.characters):
        return "not open to you now"
    seat = state.seat(cid)
    if kind == "replace-character" and not seat.buried:
        return f"settle {seat.sheet.name}'s burial first (CR-A19)"
    if kind == "recruit-follower" and state.company.followers_of(seat.sheet.name):
        return f"{seat.sheet.name} already leads {MAX_FOLLOWERS} followers"
    if not seat.sheet.alive:
        return f"{seat.sheet.name} is dead ({seat.sheet.death})"
    return "not open to you now"


def sets_difficulty(state: RollUnderTable, member: Member) -> bool:
    """The GM sets what the chapter gives the GM; a player too once the table hands it over
    (CR-S10)."""
    return member.is_gm or state.options.players_set_difficulty


def levels(state: RollUnderTable, member: Member) -> Choice:
    """The challenge levels `member`'s rolls may be made at: any, for whoever sets them
    (CR-S10); else challenging, the GM's (CR-S05)."""
    return Choice(values=LEVELS) if sets_difficulty(state, member) else SET_LEVEL


def played_by(state: RollUnderTable, member: Member) -> tuple[Id, ...]:
    return tuple(cid for cid, seat in state.characters.items() if controls(member, seat.owner))


def living(state: RollUnderTable, ids: tuple[Id, ...]) -> tuple[Id, ...]:
    return tuple(cid for cid in ids if state.sheet(cid).alive)


def _player_character(state: RollUnderTable, cid: Id, dead: bool) -> bool:
    sheet = state.sheet(cid)
    return sheet.leader is None and sheet.alive is not dead


def _follower_with_roller(state: RollUnderTable, cid: Id, roller: str) -> bool:
    """A living follower whose loyalty roll has someone alive to make it (CR-A23)."""
    sheet = state.sheet(cid)
    if sheet.leader is None or not sheet.alive:
        return False
    return roller == "follower" or state.company.member(sheet.leader).alive


def _may_be_saved(state: RollUnderTable, cid: Id) -> bool:
    sheet = state.sheet(cid)
    return sheet.at_deaths_door and sheet.omens >= omens_to_save(sheet, state.options)


def _carried(sheet: Character) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i.name for i in sheet.load.items)) if sheet.load else ()


def _held(sheet: Character) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i.name for i in sheet.load.held)) if sheet.load else ()


def _names(state: RollUnderTable, ids: tuple[Id, ...]) -> tuple[str, ...]:
    """The names of these characters and NPCs, each once, as the table calls them."""
    return tuple(dict.fromkeys(state.sheet(cid).name for cid in ids))


def _first_name(state: RollUnderTable) -> str:
    return next((seat.sheet.name for seat in state.characters.values()), "the GM")


def decider(state: RollUnderTable, pending: Pending, decision: Decision, choice: str) -> str:
    """The member who makes `choice`: whoever pays the omen for a re-roll, the owner of the
    roll's character for everything else (the asker for bare scores and groups); the GM
    for the GM's picks."""
    if decision.kind == "destroy_item":
        return ""
    action, _, name = choice.partition(" ")
    whose = name if action == REROLL else decision.chooser
    if whose in pending.characters:
        return state.seat(pending.characters[whose]).owner
    return pending.asker
