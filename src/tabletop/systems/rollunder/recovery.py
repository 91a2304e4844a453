"""What time heals (§ Critical damage, § Spending omens): a stretch ends incapacitation;
downtime ends it too, gives back what temporary injuries took, and restores spent omens.
"""

from __future__ import annotations

from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.health import Changed, adjust_ability
from tabletop.systems.rollunder.omens import recover_omens
from tabletop.systems.rollunder.records import Event


def stretch(character: Character) -> Changed:
    """The next stretch begins: an incapacitated character recovers (CR-M16)."""
    if not (character.alive and character.incapacitated):
        return Changed(character)
    text = f"{character.name} is no longer incapacitated"
    event = Event.about(character.name, "recovered", text, incapacitated=False)
    return Changed(character.with_changes(incapacitated=False), (event,))


def downtime(character: Character) -> Changed:
    """Downtime: incapacitation ends (CR-A29), temporary traits go and their ability loss
    comes back (STR bringing health with it), and every spent omen returns (CR-M19)."""
    if not character.alive:
        return Changed(character)
    sheet, events = stretch(character)
    log = list(events)
    lasting = []
    for injury in sheet.injuries:
        if injury.permanent:
            lasting.append(injury)
            continue
        text = f"{sheet.name} recovers from {injury.trait}"
        log.append(Event.about(sheet.name, "recovered", text, trait=injury.trait))
        if injury.ability is not None and injury.lost and not injury.loss_permanent:
            sheet, moved = adjust_ability(sheet, injury.ability, injury.lost)
            log.extend(moved)
    sheet = sheet.with_changes(injuries=tuple(lasting))
    sheet, recovered = recover_omens(sheet)
    log.extend(recovered)
    return Changed(sheet, tuple(log))
