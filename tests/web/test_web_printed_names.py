"""The page's log and payloads name the Woodland Edge Squeakers by their printed name,
"Squeaker" (their key, ``Edge Squeaker``, is never shown)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from webutil import TWO_HUMANS, client, head, new_game

EDGE_CARDS = re.compile(r"^play (225|226|227)\b")


def test_the_log_names_a_woodland_edge_squeaker_squeaker() -> None:
    """Two people play a Woodland Edge game, each playing a Woodland Edge Squeaker card as
    soon as one is legal (else a random action), until one has been played."""
    rng = random.Random(3)
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=5, game="base+woodland_edge")
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        played: list[str] = []
        p: dict[str, Any] = {}
        for _ in range(2000):
            p = c.get(f"/api/games/{gid}", headers=head(tokens[0])).json()
            if p["over"] or played:
                break
            seat = p["to_move"]
            mine = c.get(f"/api/games/{gid}", headers=head(tokens[seat])).json()
            edge = [a for a in mine["legal"] if EDGE_CARDS.match(a)]
            action = edge[0] if edge else rng.choice(mine["legal"])
            r = c.post(f"/api/games/{gid}/actions", headers=head(tokens[seat]),
                       json={"action": action, "version": mine["version"]})
            assert r.status_code == 200, r.text
            if edge:
                played.append(action)
        assert played, "no Woodland Edge Squeaker card was played"
        card = played[0].split()[1]
        log = c.get(f"/api/games/{gid}?log_from=0", headers=head(None)).json()["log"]
    text = json.dumps(log)
    assert f"Squeaker (card {card})" in text
    assert "Edge Squeaker" not in text
