"""Plain dice at a shared table: any expression tabletop's notation knows, in any roll mode.

Every session takes these rolls; this one takes nothing else, for a group that wants a
dice room with no system's rules."""

from tabletop.systems.plain_dice.session import SESSION, DiceSession, DiceTable

__all__ = ["SESSION", "DiceSession", "DiceTable"]
