"""The solo companion (docs/pad.md, "The solo companion"): a solo game of Dartmoor against
Anna played with the physical cards, the server holding Anna's automa deck.

Contract:

- :class:`CompanionService` creates a game for a challenge (and the medal aimed at): a
  secret seed from :func:`~forest_shuffle.engine.setup.new_seed`, Anna's automa deck dealt
  from it by the engine (:func:`~forest_shuffle.games.dartmoor_solo.automa_deck`: the same
  order as the engine's Anna for that seed), and a score-pad table of the game
  ``dartmoor`` with one player, linked to it. The game is stored (:mod:`.companion_store`)
  under an unguessable token; every request reads it from the database, so a reload, or
  another server process, finds it as it was.
- The game is a walk through steps, each confirmed by the player: the setup
  (:func:`~forest_shuffle.games.dartmoor_solo.setup_steps`), then turns: the player's turn,
  then Anna's (her top automa card is turned when the player's turn is confirmed, and its
  steps are :func:`~forest_shuffle.games.dartmoor_solo.anna_turn_steps`). When her deck is
  empty it is shuffled again as the engine does
  (:func:`~forest_shuffle.games.dartmoor_solo.reshuffled_automa`). ``winter`` (allowed in
  a step that turns deck cards) ends the game; ``back`` takes back the last confirmed
  step (up to :data:`BACK_MAX`; a card turned again is the same card). The page words the
  steps; no rule is here.
- :meth:`CompanionService.answer` is what a page may see: never the seed nor the order of
  Anna's undrawn cards (only how many are left), her card only once turned; at the end the
  result of the forest entered in the linked pad table, from
  :func:`~forest_shuffle.games.dartmoor_solo.result_of` (score, goal, medal). It is data,
  no sentence: the page words it in its language (docs/i18n.md, "The solo companion"); a
  species a step names is the name printed in the edition of the language asked for
  (``?lang=``, else ``Accept-Language``: :func:`~forest_shuffle.i18n.negotiate`), and a
  challenge's title is the ``server`` domain's translation of solo.json's.
- :func:`challenges` (``GET /api/companion``) is what the start page offers: Anna's name,
  the medals and each challenge's number, title (translated) and medal thresholds.
- A step is confirmed with the answer's ``seq`` (the stored version): another ``seq`` is a
  409 and changes nothing; bad input is a 400, an unknown token a 404, one line each.
- :func:`companion_router` is ``/api/companion`` and the page ``/companion``.
"""

from __future__ import annotations

import copy
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field, StrictInt

from forest_shuffle.cards.names import printed_name
from forest_shuffle.engine.setup import new_seed
from forest_shuffle.formats.forest_json import ForestJsonError, read_table
from forest_shuffle.games.dartmoor_solo import (
    MEDALS,
    TableStep,
    anna_turn_steps,
    automa_card,
    automa_deck,
    challenge_of,
    reshuffled_automa,
    result_of,
    setup_steps,
    solo_data,
    solo_game,
)
from forest_shuffle.i18n import negotiate, words
from forest_shuffle.server.companion_store import CompanionRow, CompanionStore, StaleCompanion
from forest_shuffle.server.pad import PadService
from forest_shuffle.server.pad_model import PadRefused
from forest_shuffle.server.store import Store

__all__ = ["PAD_GAME", "CompanionService", "challenges", "companion_router"]

#: The score pad's game of a companion's table (one player: scored as a solo game).
PAD_GAME = "dartmoor"
STATIC = Path(__file__).parent / "static"
#: The longest token looked up (longer ones are no game's).
TOKEN_MAX = 64
#: How many confirmed steps may be taken back (a mistaken tap at the table).
BACK_MAX = 30


def N_(message: str) -> str:
    """Marks a refusal of this module for the ``server`` catalog (translated in
    :func:`_refused`)."""
    return message


class Refused(PadRefused):
    """A refusal of the companion's own: an English message of the ``server`` domain with
    its named placeholders, said in the request's language when answered."""

    def __init__(self, message: str, status: int = 400, **params: object) -> None:
        super().__init__(message.format(**params), status)
        self.message = message
        self.params = params

    def said_in(self, lang: str) -> str:
        """The refusal in ``lang``."""
        return words("server", lang)(self.message, **self.params)


def title_in(title: str, lang: str) -> str:
    """A solo challenge's title (solo.json's, English) in ``lang`` (the ``server`` domain's
    messages in the context ``solo challenge``; English where none is translated)."""
    return words("server", lang).pgettext("solo challenge", title)


def challenges(lang: str = "en") -> dict[str, Any]:
    """``GET /api/companion``: ``{automa, medals, challenges: [{number, title,
    thresholds}]}``, the titles in ``lang``."""
    data = solo_data()
    return {"automa": data.automa_name, "medals": list(MEDALS),
            "challenges": [{"number": c.number, "title": title_in(c.title, lang),
                            "thresholds": dict(c.thresholds)} for c in data.challenges]}


def _step(s: TableStep, challenge: int, lang: str) -> dict[str, Any]:
    """A step as the page gets it: data; a species' name as printed in ``lang``."""
    name = s.name
    if s.kind == "start_card":
        species = solo_game(challenge).catalog.lookup(s.name)
        if species is not None:
            name = printed_name(species, lang)
    return {"kind": s.kind, "cards": s.cards, "side": s.side, "name": name, "deck": s.deck}


class CompanionService:
    """The companion's games over a :class:`Store`'s database and the pad's tables."""

    def __init__(self, store: Store, pad: PadService) -> None:
        self.db = CompanionStore(store)
        self.pad = pad
        self._lock = threading.Lock()

    # ------------------------------------------------------------ creating, reading

    def create(self, challenge: Any, medal: Any, name: Any,
               lang: str = "en") -> dict[str, Any]:
        """A new game (see the module's contract): its answer, with its ``token``."""
        from forest_shuffle.server.errors import ServiceError
        from forest_shuffle.server.solo import solo_settings

        try:
            _gid, settings = solo_settings(challenge, medal)
        except ServiceError as exc:
            raise PadRefused(str(exc)) from None
        number = challenge_of(challenge).number
        seed = new_seed()
        table = self.pad.create(PAD_GAME, ["Player" if name is None else name])
        state = {"phase": "setup", "step": 0, "turn": 0, "card": None,
                 "reshuffled": False, "automa": automa_deck(seed, number), "shown": [],
                 "cycles": 0, "turned": [], "ended": "", "back": []}
        row = CompanionRow(secrets.token_urlsafe(24), number, settings["solo"]["medal"], seed,
                           state, table["id"], table["seats"][0]["token"], table["host"],
                           time.time())
        self.db.create(row)
        return self.answer(row.token, lang)

    def _load(self, token: str) -> CompanionRow:
        row = self.db.load(token) if 0 < len(token) <= TOKEN_MAX else None
        if row is None:
            raise Refused(N_("no such companion game (check the link)"), 404)
        return row

    @staticmethod
    def _steps(row: CompanionRow) -> tuple[TableStep, ...]:
        st = row.state
        if st["phase"] == "setup":
            return setup_steps(row.challenge)
        if st["phase"] == "anna":
            return anna_turn_steps(solo_game(row.challenge), automa_card(st["card"]))
        if st["phase"] == "player":  # cards may come from the deck: winter may come
            return (TableStep("player", solo_game(row.challenge).clearing_limit, deck=True),)
        return ()

    def answer(self, token: str, lang: str = "en") -> dict[str, Any]:
        """What the page may see of the game of ``token`` (see the module's contract);
        ``lang``: the language of the names it gives (a code of i18n.LANGUAGES)."""
        row = self._load(token)
        st = row.state
        ch = challenge_of(row.challenge)
        steps = self._steps(row)
        card = None
        if st["card"] is not None:
            c = automa_card(st["card"])
            card = {"number": c.number, "add": c.add, "remove": c.remove, "side": c.side,
                    "burn": c.burn}
        return {
            "token": row.token, "seq": row.version, "phase": st["phase"],
            "challenge": {"number": ch.number, "title": title_in(ch.title, lang),
                          "thresholds": dict(ch.thresholds)},
            "medal": row.medal, "automa": solo_data().automa_name,
            "turn": st["turn"], "anna_turns": len(st["turned"]),
            "automa_left": len(st["automa"]), "reshuffled": st["reshuffled"],
            "turned": [automa_card(k).number for k in st["turned"]],
            "card": card, "steps": [_step(s, row.challenge, lang) for s in steps],
            "step": st["step"],
            "ended": st["ended"], "can_go_back": bool(st.get("back")),
            "pad": {"table": row.pad_table, "seat": 0, "token": row.pad_token,
                    "host": row.pad_host, "link": f"/pad/{row.pad_table}"},
            "result": self._result(row) if st["phase"] == "over" else None,
        }

    def _result(self, row: CompanionRow) -> dict[str, Any]:
        """The result of the forest entered in the linked pad table (the engine's)."""
        doc = self.pad.document(row.pad_table)
        try:
            forest = read_table(doc).forests[0]
        except ForestJsonError as exc:  # the pad stores only what its reader accepts
            raise PadRefused(str(exc), 409) from None
        player = doc["players"][0]
        entered = bool(player.get("trees") or player.get("moors") or player.get("cave"))
        res = result_of(solo_game(row.challenge), forest, row.challenge)
        return {"entered": entered, "have": res.have, "need": res.need,
                "goal_met": res.goal_met, "score": res.score, "medal": res.medal,
                "won": None if not row.medal else res.reached(row.medal)}

    # ------------------------------------------------------------ steps

    def step(self, token: str, seq: int, do: str, lang: str = "en") -> dict[str, Any]:
        """Confirm the step at hand (``do`` "next"), say the winter card came up (``do``
        "winter") or take back the last step (``do`` "back"), from the answer of version
        ``seq``."""
        with self._lock:
            row = self._load(token)
            st = row.state
            if seq != row.version:
                raise Refused(N_("the game moved on since step {seq} (now {now}): look again"),
                              409, seq=seq, now=row.version)
            back: list[dict[str, Any]] = st.pop("back", [])
            if do == "back":
                if not back:
                    raise Refused(N_("there is no step to take back"))
                row.state = {**back.pop(), "back": back}
                self._save(row)
                return self.answer(token, lang)
            st["back"] = [*back, copy.deepcopy(st)][-BACK_MAX:]
            if st["phase"] == "over":
                raise Refused(N_("the game is over: enter your forest in the score pad"), 409)
            steps = self._steps(row)
            here = steps[st["step"]]
            if do == "winter":
                if not here.deck:
                    raise Refused(N_("the winter card cannot come up now: this step turns no "
                                     "deck card"))
                st.update(phase="over", step=0, ended="winter")
            elif st["phase"] == "setup":
                if st["step"] + 1 < len(steps):
                    st["step"] += 1
                else:
                    st.update(phase="player", step=0, turn=1)
            elif st["phase"] == "player":
                self._turn_card(st, row.seed)
            elif st["step"] + 1 < len(steps):  # Anna's turn goes on
                st["step"] += 1
            else:  # her turn is done: the player's next turn
                st.update(phase="player", step=0, turn=st["turn"] + 1, card=None,
                          reshuffled=False)
            self._save(row)
        return self.answer(token, lang)

    def _save(self, row: CompanionRow) -> None:
        """Store ``row`` at the next version (409 if another process wrote first)."""
        try:
            self.db.save(row, row.version + 1)
        except StaleCompanion:
            raise Refused(N_("the game moved on meanwhile (another tab?): look again"),
                             409) from None

    @staticmethod
    def _turn_card(st: dict[str, Any], seed: int) -> None:
        """Turn Anna's top automa card (her deck shuffled again first when empty)."""
        reshuffled = False
        if not st["automa"]:
            st["cycles"] += 1
            st["automa"] = reshuffled_automa(seed, st["cycles"], st["shown"])
            st["shown"] = []
            reshuffled = True
        k = st["automa"].pop()
        st["shown"].append(k)
        st["turned"].append(k)
        st.update(phase="anna", step=0, card=k, reshuffled=reshuffled)


# ---------------------------------------------------------------- the REST API

class NewCompanion(BaseModel):
    """``POST /api/companion``: the challenge, the medal aimed at, the player's name."""

    challenge: Any = Field(description="the challenge, 1 to 15 (GET /api/solo)")
    medal: Any = Field(default=None, description="bronze, silver, gold or none")
    name: str | None = Field(default=None, max_length=200,
                             description="the player's name in the score pad")


class StepIn(BaseModel):
    """``POST /api/companion/{token}/steps``: confirm the step at hand, or winter."""

    seq: StrictInt = Field(description="the answer's seq the page shows")
    do: Literal["next", "winter", "back"] = Field(
        description="next: done; winter: it came up; back: take back the last step")


def _json(data: Any) -> Response:
    return Response(json.dumps(data, ensure_ascii=False).encode(),
                    media_type="application/json")


def _refused(exc: PadRefused, lang: str = "en") -> JSONResponse:
    """A one-line refusal: the companion's own in ``lang``; those of the pad and of the
    solo lobby's checks as they are (English: the server domain's refusals are to come)."""
    text = exc.said_in(lang) if isinstance(exc, Refused) else str(exc)
    return JSONResponse({"error": text}, status_code=exc.status)


Token = Annotated[str, PathParam(max_length=TOKEN_MAX)]
#: The language asked for: ``?lang=`` (the page's switch), else ``Accept-Language``.
LangQuery = Annotated[str | None, Query(max_length=35, description="en, fr, de or zh")]
AcceptLanguage = Annotated[str | None, Header()]


def companion_router(store: Store, pad: PadService) -> APIRouter:
    """The companion's routes: ``/api/companion...`` and the page ``/companion``."""
    svc = CompanionService(store, pad)
    r = APIRouter()

    @r.post("/api/companion", tags=["companion"])
    def companion_new(body: NewCompanion, lang: LangQuery = None,
                      accept_language: AcceptLanguage = None) -> Response:
        """A new solo game at a physical table: its token, Anna's deck kept here."""
        try:
            return _json(svc.create(body.challenge, body.medal, body.name,
                                    negotiate(accept_language, lang)))
        except PadRefused as exc:
            return _refused(exc, negotiate(accept_language, lang))

    @r.get("/api/companion", tags=["companion"])
    def companion_challenges(lang: LangQuery = None,
                             accept_language: AcceptLanguage = None) -> Response:
        """The challenges the start page offers (titles in the language asked for)."""
        return _json(challenges(negotiate(accept_language, lang)))

    @r.get("/api/companion/{token}", tags=["companion"])
    def companion_get(token: Token, lang: LangQuery = None,
                      accept_language: AcceptLanguage = None) -> Response:
        """The game: the step at hand, Anna's card once turned, the result at the end."""
        try:
            return _json(svc.answer(token, negotiate(accept_language, lang)))
        except PadRefused as exc:
            return _refused(exc, negotiate(accept_language, lang))

    @r.post("/api/companion/{token}/steps", tags=["companion"])
    def companion_step(token: Token, body: StepIn, lang: LangQuery = None,
                       accept_language: AcceptLanguage = None) -> Response:
        """Confirm the step at hand (``next``), end the game (``winter``) or take back
        the last step (``back``)."""
        try:
            return _json(svc.step(token, body.seq, body.do,
                                  negotiate(accept_language, lang)))
        except PadRefused as exc:
            return _refused(exc, negotiate(accept_language, lang))

    def page() -> Response:
        html = STATIC / "companion.html"
        if not html.is_file():
            return JSONResponse({"error": "the companion page is not installed"},
                                status_code=404)
        return FileResponse(html, media_type="text/html")

    @r.get("/companion", include_in_schema=False)
    def companion_page() -> Response:
        return page()

    @r.get("/companion/{token}", include_in_schema=False)
    def companion_game_page(token: str) -> Response:
        return page()

    return r
