"""What cards are and how they lie: the card model, its data, and the forest. No rules, no
game flow.

Face: :class:`Catalog`, :class:`Species`, :class:`Card`, :func:`load_catalog` (the merged
catalog of some data modules), :class:`Forest`, :class:`Host`, :class:`Dweller`. The JSON of
each module lives in ``data/<module>/``.
"""

from forest_shuffle.cards.forest import SAPLING, SHRUB, TREE, Dweller, Forest, Host
from forest_shuffle.cards.model import (
    SIDES,
    Card,
    CardDataError,
    Catalog,
    Effect,
    Points,
    Species,
    load_catalog,
)

__all__ = ["SAPLING", "SHRUB", "SIDES", "TREE", "Card", "CardDataError", "Catalog", "Dweller",
           "Effect", "Forest", "Host", "Points", "Species", "load_catalog"]
