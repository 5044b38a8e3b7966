"""docs/research.md: the training loop runs as printed, and its tables agree with the code."""

from __future__ import annotations

import re
from pathlib import Path

from rl_extra import require

(np,) = require("numpy")
require("pettingzoo")

from forest_shuffle.rl import actions as A  # noqa: E402
from forest_shuffle.rl.observation import FIELDS, OBS_SIZE  # noqa: E402

DOC = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")


def _snippet(heading: str) -> str:
    part = DOC[DOC.index(heading):]
    return re.search(r"```python\n(.*?)```", part, re.S).group(1)  # type: ignore[union-attr]


def test_the_training_loop_runs() -> None:
    code = _snippet("## A training loop")
    assert "GAMES = 200" in code and len(code.strip().splitlines()) <= 40
    space: dict[str, object] = {}
    exec(compile(code.replace("GAMES = 200", "GAMES = 1"), "research.md", "exec"), space)
    theta = space["theta"]
    assert isinstance(theta, np.ndarray) and np.abs(theta).sum() > 0  # it learned a step


def test_the_tables_agree_with_the_code() -> None:
    c = A.CARD_SLOTS
    starts = [A.BLOCK_BASE[k] for k in A.CARD_KINDS]
    ranges = [(lo, lo + c) for lo in starts] + [(starts[-1] + c, A.HALF_BASE),
                                               (A.HALF_BASE, A.NUM_ACTIONS)]
    for (lo, hi), kind in zip(ranges, [*A.CARD_KINDS, "reserved", "play"], strict=True):
        row = DOC.split(f"| {lo} - {hi - 1} | ")[1].split("\n")[0]
        assert kind in row, (lo, row)
    lo, hi = ranges[-1]
    assert hi - lo == c * 4 * A.TREE_CAP
    assert f"{A.NUM_ACTIONS:,}" in DOC and f"{OBS_SIZE:,}" in DOC
    for name, shape in FIELDS:
        assert f"| `{name}` |" in DOC, name
        shown = DOC.split(f"| `{name}` | (")[1].split(")")[0]
        assert len([d for d in shown.split(",") if d.strip()]) == len(shape), name
    assert f"TREE_CAP` = {A.TREE_CAP}" in DOC and f"CARD_SLOTS` = {c}" in DOC


def test_the_compact_tables_agree_with_the_code() -> None:
    from forest_shuffle.games import make_game
    from forest_shuffle.rl import compact as K
    from forest_shuffle.rl.compact_obs import layout

    part = DOC[DOC.index("## Compact encodings"):DOC.index("## PettingZoo")]
    k = K.COMPACT_CARDS
    assert f"{K.NUM_COMPACT:,} ids" in part and f"`COMPACT_CARDS` = {k}" in part
    rows = {(A.BARE_SLOTS, A.BARE_SLOTS + len(A.CARD_KINDS) * k): "take",
            (K.HALF_START, K.HOST_START): "half CARD SIDE",
            (K.HOST_START, K.NUM_COMPACT): "host TREE"}
    for (lo, hi), word in rows.items():
        assert word in part.split(f"| {lo} - {hi - 1} | ")[1].split("\n")[0], word
    for gid, words in (("base", "in the base game"), ("dartmoor", "in Dartmoor"),
                       ("base+alpine+woodland_edge", "with both")):
        assert f"{layout(make_game(gid)).size:,} {words}" in part, gid
    for name, _shape in layout(make_game("dartmoor")).fields:
        assert f"`{name}`" in part, name
