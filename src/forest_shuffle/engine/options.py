"""Rule settings: the points where players and sources disagree, one named switch each.

The defaults are the readings documented in ``docs/rules.md`` with their reasons. The
numbers of a game (hand limit, setup removals...) are in its definition
(:mod:`forest_shuffle.engine.game`), not here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Rules:
    """Switches for the open points of the rules (see docs/rules.md)."""

    #: A sapling also turns the top deck card into the clearing, as a tree does.
    sapling_reveals_card: bool = True
    #: Playing a sapling triggers Chanterelle ("whenever you play a Tree card").
    sapling_triggers_chanterelle: bool = True
    #: Cards placed by a free play (Badger, Salamander, Silver Fir, Red Deer, Stag Beetle,
    #: Gnat) trigger mushrooms.
    free_plays_trigger_mushrooms: bool = True
    #: The Mole may also play cards face down as saplings.
    mole_plays_saplings: bool = False
    #: A species that counts as a stacking one joins its stack (a Mountain Hare may go onto
    #: a slot of European Hares, and they onto its; expansions only).
    counts_as_joins_stack: bool = True

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    @staticmethod
    def from_dict(data: Any) -> Rules:
        """Build from a dict of known switch names; unknown names raise ValueError."""
        if not isinstance(data, dict):
            raise ValueError("rules must be an object of switches")
        known = {f.name for f in fields(Rules)}
        for key, value in data.items():
            if key not in known:
                names = ", ".join(sorted(known))
                raise ValueError(f"unknown rule setting {key!r} (known: {names})")
            if not isinstance(value, bool):
                raise ValueError(f"rule setting {key!r} must be true or false")
        return Rules(**data)
