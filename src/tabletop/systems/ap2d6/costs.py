"""AP costs: `(XnY)`, the "either cost" form and escalating chains, and the basic actions.

`(XnY)` spends X AP that come back in Y turns (RU-M16). `(2n3 or 3n1)` lets the actor pick
either cost. `(1n1)->(2n1)` charges the first cost the first time the action is taken in a
round, the second the second time, and the last one from then on (RU-M19).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.systems.ap2d6.datafiles import shipped
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated

MAX_AP_COST = 100
"""AP one cost may ask for."""

MAX_RETURN = 100
"""Turns one cost may keep its AP away: the tracker grows to this cell and no further."""

MAX_CHAIN = 20
"""Costs in one escalating chain, and alternatives in one "or" step."""

_COST = re.compile(r"\(?\s*(\d+)\s*n\s*(\d+)\s*\)?")


class Cost(BaseModel):
    """`(XnY)`: spend `ap` tokens from cell 0; they return to 0 after `returns_in` turns."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ap: Annotated[int, Field(ge=1, le=MAX_AP_COST)]
    returns_in: Annotated[int, Field(ge=1, le=MAX_RETURN)]

    def __str__(self) -> str:
        return f"{self.ap}n{self.returns_in}"


class ActionCost(BaseModel):
    """What an action costs each time it is taken in a round; no steps means free.

    Each step lists the costs the actor may choose between (usually one)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    steps: Annotated[
        tuple[Annotated[tuple[Cost, ...], Field(min_length=1, max_length=MAX_CHAIN)], ...],
        Field(max_length=MAX_CHAIN),
    ] = ()

    @model_validator(mode="before")
    @classmethod
    def _from_notation(cls, value: Any) -> Any:
        return {"steps": _parse_steps(value)} if isinstance(value, str) else value

    @property
    def free(self) -> bool:
        return not self.steps

    def choices(self, uses: int) -> tuple[Cost, ...]:
        """The costs open the `uses + 1`-th time this round: past the chain, the last again."""
        if self.free:
            return ()
        return self.steps[min(uses, len(self.steps) - 1)]

    def __str__(self) -> str:
        if self.free:
            return "free"
        return "->".join("(" + " or ".join(map(str, step)) + ")" for step in self.steps)


def _parse_steps(text: str) -> list[list[dict[str, int]]]:
    cleaned = text.strip().lower()
    if cleaned == "free":
        return []
    steps = []
    for step in cleaned.replace("→", "->").split("->"):
        alternatives = []
        for part in step.strip().strip("()").split(" or "):
            match = _COST.fullmatch(part.strip())
            if match is None:
                raise ValueError(
                    f"cannot read the AP cost {text!r}: write costs like (1n1), "
                    "(2n3 or 3n1) or (1n1)->(2n1)"
                )
            ap, returns_in = int(match[1]), int(match[2])
            if not (1 <= ap <= MAX_AP_COST and 1 <= returns_in <= MAX_RETURN):
                raise ValueError(
                    f"({ap}n{returns_in}) is out of range: 1 to {MAX_AP_COST} AP, returning in "
                    f"1 to {MAX_RETURN} turns"
                )
            alternatives.append({"ap": ap, "returns_in": returns_in})
        steps.append(alternatives)
    if len(steps) > MAX_CHAIN or any(len(step) > MAX_CHAIN for step in steps):
        raise ValueError(f"an AP cost has at most {MAX_CHAIN} steps and {MAX_CHAIN} choices a step")
    return steps


def action_cost(text: str) -> ActionCost:
    """An `ActionCost` from notation such as `(1n1)->(2n1)`; refuses anything else clearly."""
    return validated(ActionCost, text, f"AP cost {text[:40]!r}")


class BasicAction(BaseModel):
    """An action every character has, with its cost (data/actions.toml)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cost: ActionCost
    label: str = Field(min_length=1, max_length=40)
    """The action in a line's words: "draw a weapon"."""
    summary: str
    vulnerable: bool = False
    attack: bool = False
    """Counts as the round's next attack for escalating attack costs (RU-M19)."""


@cache
def basic_actions() -> dict[str, BasicAction]:
    """The actions the rules give a cost for, by name."""
    return {
        name: validated(BasicAction, entry, f"actions.toml: {name}")
        for name, entry in shipped("actions.toml").items()
    }


def action_words(kind: str) -> str:
    """What a line calls an action a character pays for: a basic action's label, or the
    kind itself (a cost such as (2n2), or "attack")."""
    found = basic_actions().get(kind)
    return found.label if found else kind


def basic_named(text: str) -> str | None:
    """The basic action `text` names, by its name or its label (any case), if any."""
    wanted = text.strip().lower()
    for name, action in basic_actions().items():
        if wanted in (name, action.label.lower()):
            return name
    return None


def basic_action(name: str) -> BasicAction:
    """One basic action by name, or an error listing them."""
    actions = basic_actions()
    if name not in actions:
        raise Ap2d6Error(f"no basic action {name!r}; known: {', '.join(actions)}")
    return actions[name]
