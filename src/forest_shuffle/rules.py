"""Rule settings: the points where players and sources disagree, one named switch each.

The defaults are the readings documented in ``docs/rules.md`` with their reasons.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

HAND_LIMIT = 10
CLEARING_LIMIT = 10
OPENING_HAND = 6
WINTER_CARDS_TO_END = 3
#: Cards returned to the box unseen at setup, by number of players.
REMOVED_AT_SETUP = {2: 30, 3: 20, 4: 10, 5: 0}


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
