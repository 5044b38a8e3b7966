"""The coach's endpoints: Suggest (a legal action from the seat's own view, nothing
played, 403 when help is off or for others), the after-game review (409 before the end;
its figures against the record and the scorer), replays of finished games and of record
files (the views equal the engine's replay; bad records refused with one line)."""

from __future__ import annotations

import json
import random
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webutil import head, one_line_error

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView, make_spectator_view
from forest_shuffle.formats.records import random_game, record_of
from forest_shuffle.server import coach as coach_module
from forest_shuffle.server import coach_schemas
from forest_shuffle.server import replays as replays_module
from forest_shuffle.server.app import create_app
from forest_shuffle.server.coach import CoachSettings

QUICK = CoachSettings(suggest_bot="mcts:iterations=30", review_bot="mcts:iterations=24",
                      review_moves=3)
PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture
def c() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", bot_delay=0.0, coach=QUICK)) as client:
        yield client


def _create(c: TestClient, seed: int = 5, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"seats": PEOPLE, "seed": seed, "hotseat": True, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _tokens(game: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"]}


def _finish(c: TestClient, game: dict[str, Any], seed: int = 1) -> None:
    """Play the game to its end with random legal actions (through the service)."""
    svc = c.app.state.service  # type: ignore[attr-defined]
    tokens = _tokens(game)
    rng = random.Random(seed)
    live = svc.game(game["game_id"])
    while not live.snap.state.over:
        state = live.snap.state
        action = rng.choice(state.legal_actions())
        svc.act(live.id, tokens[state.to_move], str(action), live.snap.version)


# ---------------------------------------------------------------------------- Suggest


def test_suggest_is_a_legal_action_from_the_own_view_and_plays_nothing(
        c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = coach_module.advise  # type: ignore[attr-defined]

    def spy(view: Any, bot: Any, seed: int = 0) -> Any:
        seen.append(view)
        return real(view, bot, seed)

    monkeypatch.setattr(coach_module, "advise", spy)
    game = _create(c)
    gid, tokens = game["game_id"], _tokens(game)
    before = c.get(f"/api/games/{gid}", headers=head(tokens[0])).json()
    r = c.post(f"/api/games/{gid}/suggest", headers=head(tokens[0]))
    assert r.status_code == 200, r.text
    s = r.json()
    assert set(s) == set(coach_schemas.Suggestion.model_fields)
    coach_schemas.Suggestion.model_validate(s)
    assert s["action"] in before["legal"] and s["seat"] == 0
    assert s["version"] == before["version"] and s["words"].startswith("Hint: ")
    assert s["actions"][0] == s["action"] or s["kind"] == "pay"
    # the bot was given seat 0's own view, nothing more
    assert len(seen) == 1 and isinstance(seen[0], PlayerView) and seen[0].player == 0
    live = c.app.state.service.game(gid)  # type: ignore[attr-defined]
    assert seen[0] == live.snap.state.view(0)
    after = c.get(f"/api/games/{gid}", headers=head(tokens[0])).json()
    assert after["version"] == before["version"] and after["view"] == before["view"]
    # asked again: the same answer, no second search
    again = c.post(f"/api/games/{gid}/suggest", headers=head(tokens[0]))
    assert again.json() == s and len(seen) == 1
    # play it: the suggested action texts are accepted by the engine
    for text in s["actions"]:
        v = c.get(f"/api/games/{gid}", headers=head(tokens[0])).json()["version"]
        r2 = c.post(f"/api/games/{gid}/actions", headers=head(tokens[0]),
                    json={"action": text, "version": v})
        assert r2.status_code == 200, r2.text


def test_suggest_reaches_the_whole_payment_of_a_play(c: TestClient) -> None:
    game = _create(c)
    gid, tokens = game["game_id"], _tokens(game)
    svc = c.app.state.service  # type: ignore[attr-defined]
    live = svc.game(gid)
    # keep the opening hand, then play a card that costs two and ask during its payment
    while live.snap.state.decision != "turn":
        st = live.snap.state
        svc.act(gid, tokens[st.to_move], "keep", live.snap.version)
    st = live.snap.state
    p = st.to_move
    costly = next((a for a in st.legal_actions() if a.kind == "play"
                   and _after(st, a).decision == "pay" and _need(_after(st, a)) >= 2), None)
    if costly is None:
        pytest.skip("this deal has no play that costs two cards")
    svc.act(gid, tokens[p], str(costly), live.snap.version)
    s = c.post(f"/api/games/{gid}/suggest", headers=head(tokens[p])).json()
    pend = live.snap.state.pending
    assert pend is not None and s["kind"] == "pay" and len(s["payment"]) == pend.need
    assert s["actions"] == [f"pay {x}" for x in sorted(s["payment"])]
    for text in s["actions"]:
        svc.act(gid, tokens[p], text, live.snap.version)
    assert live.snap.state.decision != "pay" or live.snap.state.pending.card != costly.card


def _need(state: GameState) -> int:
    pend = state.pending
    return 0 if pend is None else pend.need


def _after(state: GameState, action: Action) -> GameState:
    nxt = state.clone()
    nxt.apply(action)
    return nxt


def test_suggest_refusals(c: TestClient) -> None:
    game = _create(c)
    gid, tokens = game["game_id"], _tokens(game)
    one_line_error(c.post(f"/api/games/{gid}/suggest"), 403)  # a spectator
    one_line_error(c.post(f"/api/games/{gid}/suggest", headers=head("nope")), 403)
    other = 1 - c.get(f"/api/games/{gid}", headers=head(tokens[0])).json()["to_move"]
    assert "not your decision" in one_line_error(
        c.post(f"/api/games/{gid}/suggest", headers=head(tokens[other])), 403)
    one_line_error(c.post("/api/games/000000000000/suggest", headers=head(tokens[0])), 404)
    one_line_error(c.get(f"/api/games/{gid}/suggest", headers=head(tokens[0])), 405)
    # help off: the option at creation, in every payload, and 403 with one line
    off = _create(c, help=False)
    p = c.get(f"/api/games/{off['game_id']}", headers=head(_tokens(off)[0])).json()
    assert p["help"] is False
    assert c.get(f"/api/games/{gid}").json()["help"] is True
    to_move = p["to_move"]
    line = one_line_error(c.post(f"/api/games/{off['game_id']}/suggest",
                            headers=head(_tokens(off)[to_move])), 403)
    assert "without help" in line
    one_line_error(c.post("/api/games", json={"seats": PEOPLE, "help": "maybe"}), 400)
    # over: nothing to suggest
    _finish(c, game)
    one_line_error(c.post(f"/api/games/{gid}/suggest", headers=head(tokens[0])), 400)
    # the rematch keeps the agreement
    _finish(c, off)
    re = c.post(f"/api/games/{off['game_id']}/rematch", headers=head(_tokens(off)[0])).json()
    assert c.get(f"/api/games/{re['game_id']}").json()["help"] is False


def test_suggest_queue_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    gate = threading.Event()
    real = coach_module.advise  # type: ignore[attr-defined]

    def slow(view: Any, bot: Any, seed: int = 0) -> Any:
        gate.wait(10)
        return real(view, bot, seed)

    monkeypatch.setattr(coach_module, "advise", slow)
    settings = CoachSettings(suggest_bot="mcts:iterations=10", slots=1, queue=1)
    with TestClient(create_app("sqlite://", bot_delay=0.0, coach=settings)) as c:
        a, b = _create(c, seed=1), _create(c, seed=2)
        results: list[int] = []

        def ask(game: dict[str, Any]) -> None:
            p = c.get(f"/api/games/{game['game_id']}").json()["to_move"]
            r = c.post(f"/api/games/{game['game_id']}/suggest",
                       headers=head(_tokens(game)[p]))
            results.append(r.status_code)

        t = threading.Thread(target=ask, args=(a,))
        t.start()
        desk_busy = False
        for _ in range(200):  # until the first search holds the one place in the queue
            desk_busy = _waiting(c) >= 1
            if desk_busy:
                break
            threading.Event().wait(0.01)
        assert desk_busy
        # while that search holds the coach, the server answers for other games at once
        p = c.get(f"/api/games/{b['game_id']}").json()["to_move"]
        r = c.post(f"/api/games/{b['game_id']}/suggest", headers=head(_tokens(b)[p]))
        assert "busy" in one_line_error(r, 429)
        gate.set()
        t.join(20)
        assert results == [200]


def _waiting(c: Any) -> int:
    desk = c.app.state.coach
    return int(desk._waiting)


# ---------------------------------------------------------------------------- the review


def test_review_figures_against_the_record(c: TestClient) -> None:
    game = _create(c, seed=9)
    gid = game["game_id"]
    assert "over" in one_line_error(c.get(f"/api/games/{gid}/review"), 409)
    _finish(c, game, seed=3)
    final = c.get(f"/api/games/{gid}").json()
    r = c.get(f"/api/games/{gid}/review")
    assert r.status_code == 200, r.text
    rv = r.json()
    assert set(rv) == set(coach_schemas.Review.model_fields)
    coach_schemas.Review.model_validate(rv)
    live = c.app.state.service.game(gid)  # type: ignore[attr-defined]
    record = record_of(live.snap.state)
    # the final points are the score pad's, line by line
    for pad, mine in zip(final["scores"], rv["final"], strict=True):
        assert mine["total"] == pad["total"] and mine["lines"] == pad["lines"]
        assert sum(s["points"] for s in mine["species"]) == pad["total"]
        assert sum(mine["lines"].values()) == pad["total"]
    # the points per turn are the scorer's on the public forests of the replayed state
    steps = [t["step"] for t in rv["turns"]]
    assert steps[0] == 0 and steps[-1] == len(record["actions"]) and steps == sorted(steps)
    assert rv["turns"][-1]["totals"] == [s["total"] for s in final["scores"]]
    state = GameState.new(2, record["seed"], None, record["first_player"], record["deal"])
    done = 0
    for t in rv["turns"]:
        while done < t["step"]:
            state.apply(Action.parse(record["actions"][done]))
            done += 1
        want = [sh.total for sh in state.game.score_table(make_spectator_view(state).forests)]
        assert t["totals"] == want and t["turn"] == state.turn
    assert len(rv["turns"]) >= state.turn // 2
    # the moves checked: bounded; each one a legal action the seat did not play
    assert 0 < rv["checked"] <= QUICK.review_moves
    assert rv["moves"]  # this seeded game (searches of fixed iterations) has one
    for m in rv["moves"]:
        assert m["chosen"] != m["played"] and m["gain"] >= coach_module.MIN_GAIN
        assert record["actions"][m["step"]] == m["played"]
        st = GameState.new(2, record["seed"], None, record["first_player"], record["deal"])
        begun: set[tuple[int, int]] = set()  # (turn, seat) of every turn begun so far
        for text in record["actions"][:m["step"]]:
            if st.turn:
                begun.add((st.turn, st.current))
            st.apply(Action.parse(text))
        begun.add((st.turn, st.current))
        assert st.to_move == m["seat"] and Action.parse(m["chosen"]) in st.legal_actions()
        assert m["turn"] == st.turn
        assert m["own_turn"] == sum(1 for _, who in begun if who == m["seat"])
    # kept: asked again, the same review at once
    assert c.get(f"/api/games/{gid}/review").json() == rv
    one_line_error(c.get("/api/games/000000000000/review"), 404)


# ---------------------------------------------------------------------------- replays


def test_replay_of_a_finished_game_steps_like_the_engine(c: TestClient) -> None:
    game = _create(c, seed=4)
    gid, tokens = game["game_id"], _tokens(game)
    one_line_error(c.get(f"/api/games/{gid}/replay"), 409)
    _finish(c, game, seed=8)
    live = c.app.state.service.game(gid)  # type: ignore[attr-defined]
    actions = [str(a) for a in live.snap.state.history]
    first = c.get(f"/api/games/{gid}/replay").json()
    coach_schemas.ReplayFrame.model_validate(first)
    assert set(first) <= set(coach_schemas.ReplayFrame.model_fields)
    assert first["steps"] == len(actions) and first["step"] == 0 and first["seat"] is None
    assert first["names"] == ["Ann", "Bo"]
    state = GameState.new(2, live.seed, None, 0, live.deal)
    for k in range(len(actions) + 1):
        if k % 37 == 0 or k == len(actions):
            for seat in (None, 0, 1):
                q = {"step": k} | ({} if seat is None else {"seat": seat})
                f = c.get(f"/api/games/{gid}/replay", params=q).json()
                want = make_spectator_view(state) if seat is None else state.view(seat)
                assert f["view"] == want.to_dict() and f["step"] == k
                assert f["over"] == state.over
        if k < len(actions):
            state.apply(Action.parse(actions[k]))
    # the log at the end is the game's own log, as each seat saw it
    for seat in (0, 1):
        end = c.get(f"/api/games/{gid}/replay", params={"step": len(actions), "seat": seat})
        whole = c.get(f"/api/games/{gid}", headers=head(tokens[seat])).json()["log"]
        assert end.json()["log"] == whole
    # refusals
    one_line_error(c.get(f"/api/games/{gid}/replay", params={"step": len(actions) + 1}), 400)
    one_line_error(c.get(f"/api/games/{gid}/replay", params={"step": -1}), 400)
    one_line_error(c.get(f"/api/games/{gid}/replay", params={"seat": 2}), 400)
    one_line_error(c.get(f"/api/games/{gid}/replay", params={"step": "x"}), 400)
    one_line_error(c.get("/api/games/000000000000/replay"), 404)


def test_replay_of_a_record_file(c: TestClient) -> None:
    final = random_game(3, 11, game="base+alpine")
    record = record_of(final)
    r = c.post("/api/replays", json={"text": json.dumps(record)})
    assert r.status_code == 200, r.text
    first = r.json()
    coach_schemas.ReplayFrame.model_validate(first)
    rid = first["replay_id"]
    assert first["game"] == "base+alpine" and first["steps"] == len(record["actions"])
    assert first["players"] == 3
    state = GameState.new(3, record["seed"], None, record["first_player"], record["deal"],
                          game="base+alpine")
    for k, text in enumerate(record["actions"]):
        if k % 41 == 0:
            for seat in (None, 2):
                q = {"step": k} | ({} if seat is None else {"seat": seat})
                f = c.get(f"/api/replays/{rid}", params=q).json()
                want = make_spectator_view(state) if seat is None else state.view(seat)
                assert f["view"] == want.to_dict()
        state.apply(Action.parse(text))
    end = c.get(f"/api/replays/{rid}", params={"step": len(record["actions"])}).json()
    assert end["over"] and [x["total"] for x in end["running"]] == final.scores()
    # the same record again: the same id
    assert c.post("/api/replays", json={"text": json.dumps(record)}).json()["replay_id"] == rid
    one_line_error(c.get("/api/replays/0123456789abcdef"), 404)


def test_bad_record_files_are_refused_with_one_line(c: TestClient) -> None:
    record = record_of(random_game(2, 5))
    broken = dict(record, actions=record["actions"][:10] + ["play 999"])
    wrong_score = json.loads(json.dumps(record))
    wrong_score["scores"][0]["total"] += 1
    for text in ("", "not json {", "[1, 2]", json.dumps({"format": "x"}),
                 json.dumps(broken), json.dumps(wrong_score), "[" * 100_000,
                 json.dumps(dict(record, game="chess"))):
        r = c.post("/api/replays", json={"text": text})
        assert r.status_code in (400, 413), (text[:40], r.text)
        line = r.json()["error"]
        assert "\n" not in line and len(line) < 400
    one_line_error(c.post("/api/replays", json={"record": record}), 400)


def test_suggest_in_a_worker_process() -> None:
    """With ``processes`` the search runs in a fresh worker process (the view is all it is
    sent); the answer is as in a thread: the same bot, seed and view give the same move."""
    settings = CoachSettings(suggest_bot="mcts:iterations=30", processes=1)
    answers = []
    for s in (settings, QUICK):
        with TestClient(create_app("sqlite://", bot_delay=0.0, coach=s)) as c:
            game = _create(c, seed=6)
            p = c.get(f"/api/games/{game['game_id']}").json()["to_move"]
            r = c.post(f"/api/games/{game['game_id']}/suggest",
                       headers=head(_tokens(game)[p]))
            assert r.status_code == 200, r.text
            answers.append(r.json())
    assert answers[0]["action"] == answers[1]["action"]
    assert answers[0]["payment"] == answers[1]["payment"]


def test_dartmoor_suggest_review_and_replay(c: TestClient) -> None:
    """A game with its own state class and six score-pad lines: the same endpoints."""
    game = _create(c, seed=3, game="dartmoor")
    gid, tokens = game["game_id"], _tokens(game)
    p = c.get(f"/api/games/{gid}").json()
    seat = p["to_move"]
    legal = c.get(f"/api/games/{gid}", headers=head(tokens[seat])).json()["legal"]
    s = c.post(f"/api/games/{gid}/suggest", headers=head(tokens[seat])).json()
    assert s["action"] in legal
    _finish(c, game, seed=2)
    final = c.get(f"/api/games/{gid}").json()
    rv = c.get(f"/api/games/{gid}/review").json()
    live = c.app.state.service.game(gid)  # type: ignore[attr-defined]
    assert rv["lines"] == list(live.snap.state.game.pad_lines) and len(rv["lines"]) == 6
    for pad, mine in zip(final["scores"], rv["final"], strict=True):
        assert mine["total"] == pad["total"] and mine["lines"] == pad["lines"]
    n = len(live.snap.state.history)
    frame = c.get(f"/api/games/{gid}/replay", params={"step": n, "seat": 1}).json()
    assert frame["view"] == live.snap.state.view(1).to_dict() and frame["game"] == "dartmoor"


def test_a_search_done_at_once_is_answered(c: TestClient) -> None:
    """A search that is over before its done callback is added (a forced choice, a quick
    bot) still answers: the callback runs inside ``add_done_callback``, under the lock."""
    from concurrent.futures import Future

    class AtOnce:
        def submit(self, fn: Any, *args: Any) -> Future[Any]:
            f: Future[Any] = Future()
            f.set_result(fn(*args))
            return f

        def shutdown(self, **_: Any) -> None:
            pass

    desk = c.app.state.coach  # type: ignore[attr-defined]
    desk._pool = AtOnce()
    game = _create(c, seed=8)
    p = c.get(f"/api/games/{game['game_id']}").json()["to_move"]
    import threading

    answers: list[int] = []
    asking = threading.Thread(target=lambda: answers.append(c.post(
        f"/api/games/{game['game_id']}/suggest", headers=head(_tokens(game)[p])).status_code),
        daemon=True)
    asking.start()
    asking.join(30)
    assert not asking.is_alive(), "the suggestion never came back (a deadlock)"
    assert answers == [200] and desk._waiting == 0


def test_a_record_sent_again_is_not_replayed_again(c: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    record = record_of(random_game(2, 12))
    calls = [0]
    real = replays_module.replay

    def counted(data: Any) -> Any:
        calls[0] += 1
        return real(data)

    monkeypatch.setattr(replays_module, "replay", counted)
    text = json.dumps(record)
    ids = {c.post("/api/replays", json={"text": text}).json()["replay_id"]
           for _ in range(5)}
    # the same record written another way (keys reordered, spaces) is the same replay
    ids.add(c.post("/api/replays", json={"text": json.dumps(record, indent=1,
                                                            sort_keys=True)}
                   ).json()["replay_id"])
    assert len(ids) == 1 and calls[0] == 1


def test_every_frame_of_a_replay_is_the_engines_state() -> None:
    final = random_game(3, 7)
    rp = replays_module.Replay(record_of(final), ["A", "B", "C"], "record", "x")
    state = GameState.new(3, final.seed, None, final.first_player, final.deal)
    for k in range(rp.steps + 1):
        assert rp.state_at(k).to_dict() == state.to_dict(), k
        if k < rp.steps:
            state.apply(rp.actions[k])
    # a frame starts from a kept state, never from the deal
    assert len(rp.checkpoints) == rp.steps // replays_module.CHECKPOINT + 1


def _note(order: list[str], name: str) -> dict[str, Any]:
    order.append(name)
    time.sleep(0.05)
    return {"name": name}


def test_waiting_searches_start_address_after_address() -> None:
    """One address with many searches waiting and another with one: the other's starts at
    the next free slot, not after all of the first's (a fair queue across addresses)."""
    desk = coach_module.CoachDesk(None, CoachSettings(slots=1, queue=10,  # type: ignore[arg-type]
                                                      per_owner=None))
    order: list[str] = []
    cache: Any = OrderedDict()
    try:
        futures = [desk._submit(cache, f"a{k}", _note, order, f"a{k}", owner="A")
                   for k in range(4)]
        futures.append(desk._submit(cache, "b0", _note, order, "b0", owner="B"))
        for f in futures:
            f.result(timeout=10)
    finally:
        desk.close()
    assert order.index("b0") <= 2, order
    assert sorted(order) == ["a0", "a1", "a2", "a3", "b0"]
