"""What cards are and how they lie: the card model, its data, and the forest. No rules, no
game flow.

Face: :class:`Catalog`, :class:`Species`, :class:`Card`, :func:`load_catalog` (the merged
catalog of some data modules; Dartmoor's is ``load_catalog(("dartmoor",))``), :class:`Cave`,
:class:`Forest`, :class:`Host`, :class:`Dweller`. The JSON of
each module lives in ``data/<module>/``. English words for people (``article``, ``plural``,
``count``) are in :mod:`forest_shuffle.cards.words`, the one copy every layer uses.
"""

from forest_shuffle.cards.forest import (
    MOOR,
    SAPLING,
    SHRUB,
    TREE,
    UNIVERSAL_MOOR,
    Dweller,
    Forest,
    Host,
)
from forest_shuffle.cards.model import (
    SIDES,
    Card,
    CardDataError,
    Catalog,
    Cave,
    Effect,
    Points,
    Species,
    load_catalog,
)

__all__ = ["MOOR", "SAPLING", "SHRUB", "SIDES", "TREE", "UNIVERSAL_MOOR", "Card", "CardDataError",
           "Catalog", "Cave", "Dweller", "Effect", "Forest", "Host", "Points", "Species",
           "load_catalog"]
