"""The AP tracker: tokens on numbered cells, spent from cell 0, sliding back one cell a round.

Spending `(XnY)` moves X tokens from cell 0 to cell Y; at the start of each round every token
moves one cell toward 0 (RU-M18, RU-A07). Temp AP sits on cell 0 and is gone once spent or
when the next round starts (RU-M20, RU-A09). Every change returns a new tracker and an event;
a change the rules refuse raises `Ap2d6Error` and leaves the tracker as it was.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tabletop.systems.ap2d6.costs import MAX_AP_COST, MAX_RETURN, ActionCost, Cost, action_words
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.options import DEFAULTS, Options

AP_PER_ROUND = 3
"""Tokens a character has on the tracker (RU-M16)."""

SHOWN_CELLS = 4
"""Cells 0-3 as on the character sheet; the tracker grows past them when a cost needs it."""

ATTACK = "attack"
"""Every attack, with any weapon, counts as the same action for escalating costs (RU-M19)."""

Cell = Annotated[int, Field(ge=0, le=MAX_RETURN)]


class APTracker(BaseModel):
    """Where each AP token is, plus temp AP and this round's bookkeeping."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tokens: tuple[Cell, ...] = (0,) * AP_PER_ROUND
    """The cell of each regular token, nearest to 0 first."""
    temp: Annotated[int, Field(ge=0, le=MAX_AP_COST)] = 0
    ap_per_round: Annotated[int, Field(ge=0, le=MAX_AP_COST)] = AP_PER_ROUND
    lost: Annotated[int, Field(ge=0, le=MAX_AP_COST)] = 0
    """Tokens taken off by "lose AP" and not yet given back (RU-A10)."""
    uses: dict[str, Annotated[int, Field(ge=0)]] = {}
    """How many times each escalating action has been paid for this round."""
    acted: bool = False
    """Spent AP this round."""
    waiting: bool = False
    """Chose to wait this round: nothing else until the next round, then gain 1 AP."""

    @field_validator("tokens")
    @classmethod
    def _sorted(cls, tokens: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(tokens))

    @model_validator(mode="after")
    def _token_count(self) -> APTracker:
        if len(self.tokens) + self.lost > self.ap_per_round:
            raise ValueError(
                f"{len(self.tokens)} tokens and {self.lost} lost is more than the "
                f"{self.ap_per_round} AP a round"
            )
        return self

    # -- reading ----------------------------------------------------------------------------

    @property
    def ready(self) -> int:
        """Regular tokens on cell 0."""
        return self.tokens.count(0)

    @property
    def spendable(self) -> int:
        """AP that can be spent now: tokens on cell 0 and temp AP."""
        return self.ready + self.temp

    def cells(self) -> list[int]:
        """Regular tokens per cell, from cell 0 to the furthest in use (at least cells 0-3)."""
        size = max(SHOWN_CELLS, (self.tokens[-1] + 1) if self.tokens else 0)
        return [self.tokens.count(cell) for cell in range(size)]

    def choices(self, action: ActionCost, kind: str) -> tuple[Cost, ...]:
        """The costs open for `action` now, given how often `kind` was paid this round."""
        return action.choices(self.uses.get(kind, 0))

    def __str__(self) -> str:
        shown = " | ".join(f"{cell}: {'●' * count}" for cell, count in enumerate(self.cells()))
        extra = f" + {self.temp} temp" if self.temp else ""
        return f"[{shown}]{extra}"

    # -- changes ----------------------------------------------------------------------------

    def spend(self, cost: Cost) -> tuple[APTracker, Event]:
        """Pay one `(XnY)`: temp AP first (it would vanish anyway), then tokens to cell Y."""
        return self._paid(cost, self.uses, "spent")

    def pay(
        self, action: ActionCost, kind: str, choice: Cost | None = None
    ) -> tuple[APTracker, Event]:
        """Pay for one use of `action`, counting it toward `kind`'s escalating chain (RU-M19).

        `choice` picks one of an "or" step's costs; without it the first is paid."""
        if self.waiting:
            raise Ap2d6Error("a character who is waiting can do nothing else this round")
        if action.free:
            return self, Event(kind="free", summary="a free action", data={"action": kind})
        open_costs = self.choices(action, kind)
        chosen = open_costs[0] if choice is None else choice
        if chosen not in open_costs:
            shown = " or ".join(f"({cost})" for cost in open_costs)
            raise Ap2d6Error(f"({chosen}) is not a cost of this action now; it costs {shown}")
        uses = {**self.uses, kind: self.uses.get(kind, 0) + 1}
        counted = len(action.steps) > 1 or kind == ATTACK
        what = action_words(kind)
        label = f"{what} #{uses[kind]} this round: spent" if counted else f"{what}: spent"
        return self._paid(chosen, uses, label, kind)

    def _paid(
        self, cost: Cost, uses: dict[str, int], label: str, kind: str | None = None
    ) -> tuple[APTracker, Event]:
        if self.waiting:
            raise Ap2d6Error("a character who is waiting can do nothing else this round")
        if cost.ap > self.spendable:
            raise Ap2d6Error(f"({cost}) needs {cost.ap} AP and only {self.spendable} can be spent")
        from_temp = min(self.temp, cost.ap)
        moved = cost.ap - from_temp
        tokens = tuple(sorted((cost.returns_in,) * moved + self.tokens[moved:]))
        after = self.model_copy(
            update={"tokens": tokens, "temp": self.temp - from_temp, "acted": True, "uses": uses}
        )
        note = f" ({from_temp} of it temp AP)" if from_temp else ""
        data = {"cost": str(cost)} | ({"action": kind} if kind else {})
        event = Event(kind="pay" if kind else "spend", summary=f"{label} ({cost}){note}", data=data)
        return after, event

    def start_round(self, options: Options = DEFAULTS) -> tuple[APTracker, list[Event]]:
        """Status Management (RU-A07): every token one cell nearer 0, temp AP gone, chains reset;
        then a waiting character gains 1 AP (RU-A11) and, if the table says so, lost AP returns."""
        shifted = self.model_copy(
            update={
                "tokens": tuple(max(cell - 1, 0) for cell in self.tokens),
                "temp": 0,
                "uses": {},
                "acted": False,
                "waiting": False,
            }
        )
        events = [Event(kind="shift", summary="every token moved one cell toward 0")]
        if self.temp:
            events.append(Event(kind="temp-expired", summary=f"{self.temp} unspent temp AP gone"))
        if options.lost_ap_returns == "next-round" and self.lost:
            shifted = shifted.model_copy(
                update={"tokens": (0,) * self.lost + shifted.tokens, "lost": 0}
            )
            events.append(Event(kind="lost-returned", summary=f"{self.lost} lost AP came back"))
        if self.waiting:
            shifted, gained = shifted.gain()
            events.append(gained.model_copy(update={"summary": "waited: " + gained.summary}))
        return shifted, events

    def gain(self) -> tuple[APTracker, Event]:
        """Gain 1 AP (RU-M22): a new token on 0 if short of a full tracker, otherwise the token
        furthest from 0 moves to 0 (no effect when all are already there, RU-A11)."""
        if len(self.tokens) < self.ap_per_round:
            lost = max(self.lost - 1, 0)
            after = self.model_copy(update={"tokens": (0, *self.tokens), "lost": lost})
            return after, Event(kind="gain", summary="gained 1 AP: a new token on cell 0")
        if not self.tokens or self.tokens[-1] == 0:
            return self, Event(kind="gain", summary="gained 1 AP: every token already on 0")
        furthest = self.tokens[-1]
        after = self.model_copy(update={"tokens": (0, *self.tokens[:-1])})
        return after, Event(
            kind="gain", summary=f"gained 1 AP: a token moved from cell {furthest} to 0"
        )

    def lose(self) -> tuple[APTracker, Event]:
        """Lose 1 AP (RU-M21): the token furthest from 0 leaves the tracker (temp AP only when
        no regular token is left, RU-A09)."""
        if self.tokens:
            furthest = self.tokens[-1]
            after = self.model_copy(update={"tokens": self.tokens[:-1], "lost": self.lost + 1})
            return after, Event(
                kind="lose", summary=f"lost 1 AP: the token on cell {furthest} is off the tracker"
            )
        if self.temp:
            after = self.model_copy(update={"temp": self.temp - 1})
            return after, Event(kind="lose", summary="lost 1 AP: a temp AP")
        return self, Event(kind="lose", summary="lost 1 AP: no token left to lose")

    def add_temp(self, amount: int = 1) -> tuple[APTracker, Event]:
        """Temp AP onto cell 0, lasting until the next round starts (RU-M20)."""
        if amount < 1 or self.temp + amount > MAX_AP_COST:
            raise Ap2d6Error(f"temp AP must stay between 1 and {MAX_AP_COST}")
        after = self.model_copy(update={"temp": self.temp + amount})
        return after, Event(kind="temp", summary=f"{amount} temp AP on cell 0")

    def wait(self, options: Options = DEFAULTS) -> tuple[APTracker, Event]:
        """Wait (RU-M23): nothing else this round; gain 1 AP when the next one starts."""
        if self.waiting:
            raise Ap2d6Error("already waiting this round")
        if self.acted and not options.wait_after_acting:
            raise Ap2d6Error("waiting means doing nothing else this round, and AP was spent")
        after = self.model_copy(update={"waiting": True})
        return after, Event(kind="wait", summary="waits: gains 1 AP when the next round starts")
