"""The others' turns in short (narration.brief_words, turn_summary, revealed_words) and the
server's use of them: the payload's ``waited`` when a seat's turn begins, the log's
``words`` without card ids, the card a tree turns into the clearing logged."""

from __future__ import annotations

import re

from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game
from forest_shuffle.server.service import GameService, SeatSpec, narrate, plain_words
from forest_shuffle.server.store import Store
from forest_shuffle.text.narration import brief_words, revealed_words, turn_summary

CARD_ID = re.compile(r"\bcard \d+")


def test_a_summary_counts_draws_and_gathers_takes() -> None:
    assert turn_summary("Bob", ["drew a card", "drew a card"]) == "Bob drew 2 cards."
    assert turn_summary("Bob", ["took Oak from the clearing", "took Birch from the clearing"]) \
        == "Bob took Oak and Birch from the clearing."
    assert turn_summary("Cy", ["drew a card", "took Oak from the clearing",
                               "played Wolf left of tree 2 (Oak)"]) \
        == "Cy drew a card, took Oak from the clearing and played Wolf left of tree 2 (Oak)."
    assert turn_summary("Cy", []) is None


def test_briefs_name_no_card_id_and_no_hidden_card() -> None:
    state = GameState.new(2, seed=5)
    seen = 0
    for _ in range(300):
        if state.over:
            break
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        for action in state.legal_actions():
            brief = brief_words(action, view.pending, view.forests[seat], state.game.catalog)
            if brief is None:
                continue
            seen += 1
            assert not CARD_ID.search(brief)
            if action.kind == "sapling":
                assert brief == "played a sapling"  # its card stays hidden
            if action.kind == "draw":
                assert brief == "drew a card"
        plays = [a for a in state.legal_actions() if a.kind == "play"]
        state.apply(plays[0] if plays else state.legal_actions()[0])
    assert seen > 100


def test_plain_words_leave_out_the_ids() -> None:
    assert plain_words("Ada pays with card 77 (Wolf).") == "Ada pays with Wolf."
    assert plain_words("Ada plays Oak (card 3).") == "Ada plays Oak."
    assert plain_words("Ada plays Wolf (left half of card 77) at tree 2.") \
        == "Ada plays Wolf (left half) at tree 2."
    assert plain_words("Ada draws a card from the deck, gets card 12 (Oak), card 40 "
                       "(Red Fox).") == "Ada draws a card from the deck, gets Oak, Red Fox."
    assert revealed_words([88], make_game("base").catalog).startswith(
        "The top card of the deck goes into the clearing: ")


def test_a_tree_play_logs_the_card_it_turns_into_the_clearing() -> None:
    state = GameState.new(2, seed=3)
    names = ["Ada", "Bob"]
    for _ in range(400):
        trees = [a for a in state.legal_actions() if a.kind == "play" and not a.side
                 and state.game.catalog.card(a.card).is_tree]
        if trees:
            break
        state.apply(state.legal_actions()[0])
    assert trees
    seat = state.to_move
    assert seat is not None
    # the tree is placed (and turns the deck's top card over) once it is paid for
    entries = []
    action = trees[0]
    first = None
    while True:
        after = state.clone()
        after.apply(action)
        lines = narrate(state, after, seat, action, names)
        first = first or lines[0]
        entries.extend(lines)
        new = [c for c in after.clearing if c not in state.clearing
               and c not in state.hands[seat]]
        state = after
        if new or state.decision != "pay":
            break
        action = state.legal_actions()[0]
    assert len(new) == 1
    revealed = [e for e in entries if e.seat is None and e.text.startswith("The top card")]
    assert len(revealed) == 1 and f"card {new[0]}" in revealed[0].text
    assert first.brief is not None and first.brief.startswith("played ")
    assert all(e.brief is None for e in entries[1:] if e.seat is not None)  # payments


def test_the_payload_sums_up_the_others_turns_when_a_seat_begins() -> None:
    svc = GameService(Store("sqlite://"), bot_delay=0, bot_processes=0)
    try:
        g = svc.create([SeatSpec("human", "Ada"), SeatSpec("human", "Bob")], seed=4)
        gid = g["game_id"]
        tokens = [s["token"] for s in g["seats"]]
        summed = 0
        for _ in range(40):
            p0 = svc.payloads.payload(gid, 0)
            seat = 0 if p0["legal"] else 1
            p = svc.payloads.payload(gid, seat)
            other = svc.payloads.payload(gid, 1 - seat)
            assert other["waited"] == []  # only for the seat to move
            if p["decision"] == "turn" and p["view"]["turn"] > 2:
                assert p["waited"] and all(s.startswith(names) for s in p["waited"]
                                           for names in [("Ada", "Bob")[1 - seat]])
                assert not any(CARD_ID.search(s) for s in p["waited"])
                summed += 1
            for e in p["log"]:
                assert not CARD_ID.search(e["words"])
            svc.act(gid, tokens[seat], p["legal"][0], p["version"])
        assert summed >= 5
    finally:
        svc.close()
