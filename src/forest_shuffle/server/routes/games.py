"""The routes of games (docs/web.md, REST): cards, levels, creation, solo, the lobby's list,
a seat's payload, actions, invites and rematches.

Contract: every route answers JSON as built (:func:`~forest_shuffle.server.answers.answer`)
or raises :class:`~forest_shuffle.server.service.ServiceError`, answered in one line by the
app. The seat comes from the request's token (:data:`~.deps.SeatToken`).
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from fastapi.responses import Response

from forest_shuffle.bots.registry import DIFFICULTIES, DIFFICULTY_WORDS
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.game import UnknownGameError, game_by_id, game_ids
from forest_shuffle.server import schemas
from forest_shuffle.server import solo as solo_mode
from forest_shuffle.server.answers import answer, json_bytes
from forest_shuffle.server.bodies import (
    ActionIn,
    ClaimIn,
    KnownGames,
    LogFrom,
    NewGame,
    QueryInt,
    SoloIn,
)
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.payloads import card_catalog
from forest_shuffle.server.routes.deps import Address, HubDep, Lang, SeatToken, Svc
from forest_shuffle.server.service import SeatSpec
from forest_shuffle.server.solo_schemas import SoloChallenges
from forest_shuffle.text.narration import game_title, game_words

log = logging.getLogger(__name__)

router = APIRouter()
#: Each game's catalog as sent (built once per game id).
_catalogs: dict[tuple[str, str], bytes] = {}


@router.get("/api/cards", tags=["cards"], response_model=None,
            responses={200: {"model": schemas.Catalog}, **schemas.ERRORS})
def cards(svc: Svc, lang: Lang,
          game: Annotated[str | None, Query(max_length=80)] = None) -> Response:
    """Every card (id, kind, split axis, tree symbols, halves) and every species (cost,
    tags, positions, rules text) of one game (the server's default game if none); the
    names as printed in the ``lang`` edition (else ``Accept-Language``)."""
    try:
        gid = game_by_id(svc.default_game if game is None else game).id
    except UnknownGameError as exc:
        raise ServiceError(400, str(exc)) from None
    key = (gid, lang)
    if key not in _catalogs:
        _catalogs[key] = json_bytes(card_catalog(gid, lang))
    return Response(_catalogs[key], media_type="application/json")


@router.get("/api/games-offered", tags=["games"], response_model=None)
async def games_offered(svc: Svc, lang: Lang) -> list[dict[str, Any]]:
    """The games this server offers: id, title (in the page's language) and what the
    lobby says of it (the default first)."""
    ids = [svc.default_game] + [g for g in game_ids() if g != svc.default_game]
    return [{"id": g, "title": game_title(game_by_id(g), lang),
             "words": game_words(game_by_id(g))}
            for g in ids]


@router.get("/api/levels", tags=["games"], response_model=list[schemas.Level])
async def levels() -> list[dict[str, str]]:
    """The bot levels a seat may have."""
    return [{"level": k, "spec": v, "words": DIFFICULTY_WORDS.get(k, k)}
            for k, v in DIFFICULTIES.items()]


@router.post("/api/games", tags=["games"], response_model=None,
             responses={200: {"model": schemas.Created}, **schemas.ERRORS})
def new_game(body: NewGame, svc: Svc, address: Address, lang: Lang) -> Response:
    """Create a game. Hot-seat: the answer holds every human seat's token. Else the
    creator (the first person) gets their seat's token, and every other person's seat
    an ``invite`` and its link, claimed once (``POST /api/games/{id}/claim``). A seat
    without a name is named in the creator's language (``?lang=``, else
    ``Accept-Language``)."""
    specs = [SeatSpec(s.kind, s.name, s.level) for s in body.seats]
    return answer(svc.create(specs, body.seed, body.hotseat, game=body.game,
                             help=body.help, invites=True, owner=address, lang=lang))


@router.get("/api/solo", tags=["solo"], response_model=None,
            responses={200: {"model": SoloChallenges}})
def solo_challenges() -> Response:
    """Dartmoor's solo challenges: number, game id, title, medal thresholds, words."""
    return answer(solo_mode.challenges())


@router.post("/api/solo", tags=["solo"], response_model=None,
             responses={200: {"model": schemas.Created}, **schemas.ERRORS})
def new_solo(body: SoloIn, svc: Svc) -> Response:
    """Create a solo game of one challenge (one human seat, no bots, no invite);
    400 with one line for a challenge or medal that is none."""
    gid, more = solo_mode.solo_settings(body.challenge, body.medal)
    return answer(svc.create([SeatSpec("human", body.name)], body.seed, game=gid,
                             help=body.help, more=more))


@router.post("/api/known-games", tags=["games"], response_model=None,
             responses={200: {"model": list[schemas.KnownGameOut]}, **schemas.ERRORS})
def known_games(body: KnownGames, svc: Svc) -> Response:
    """What the lobby lists of the games a browser remembers: per game whether it is
    over, whose move it is, and whether the token still holds a seat (public facts
    only, and the token's own seat)."""
    return answer([svc.summary(g.game_id, g.token) for g in body.games])


@router.get("/api/games/{game_id}", tags=["games"], response_model=None,
            responses={200: {"model": schemas.Payload}, **schemas.ERRORS})
def get_game(game_id: str, svc: Svc, hub: HubDep, token: SeatToken, lang: Lang,
             log_from: LogFrom = None) -> Response:
    """The payload of the token's seat (a spectator's without a seat token), its log
    from entry ``log_from`` on, its words in ``lang`` (else ``Accept-Language``)."""
    start = svc.payloads.check_log_from(game_id, log_from)
    seat = svc.seat_for(game_id, token)
    return answer(hub.payload(game_id, seat, start, lang))


@router.post("/api/games/{game_id}/actions", tags=["games"], response_model=None,
             responses={200: {"model": schemas.Payload}, **schemas.ERRORS})
def post_action(game_id: str, body: ActionIn, svc: Svc, hub: HubDep, token: SeatToken,
                lang: Lang, log_from: LogFrom = None) -> Response:
    """Apply an action of the token's seat; the new payload (its log from entry
    ``log_from`` on). 409 if ``version`` is not the game's version, 403 if it is not this
    seat's decision, 400 if illegal (or a bad ``log_from``, checked first). Once stored
    the action is never answered with an error: if its payload cannot be built, 200 with
    ``{game_id, stored, version, payload: null}`` (fetch the game again)."""
    start = svc.payloads.check_log_from(game_id, log_from)
    seat = svc.act(game_id, token, body.action, body.version)
    try:
        return answer(hub.payload(game_id, seat, start, lang))
    except Exception as exc:  # stored: never an error, the sender learns what was stored
        log.error("game %s: the action at version %d stored, its answer failed (%s: %s)",
                  game_id, body.version, type(exc).__name__, " ".join(str(exc).split())[:200])
        return answer({"game_id": game_id, "stored": str(Action.parse(body.action)),
                       "version": body.version + 1, "payload": None})


@router.post("/api/games/{game_id}/claim", tags=["games"], response_model=None,
             responses={200: {"model": schemas.RematchSeat}, **schemas.ERRORS})
def post_claim(game_id: str, body: ClaimIn, svc: Svc) -> Response:
    """Claim an invited seat with its link's ``invite`` code, once: the seat's token
    (and its link). 403 for a code used already or replaced."""
    return answer(svc.claim(game_id, body.invite))


@router.post("/api/games/{game_id}/seats/{seat}/invite", tags=["games"],
             response_model=None, responses={200: {"model": schemas.Invite},
                                             **schemas.ERRORS})
def post_reissue(game_id: str, seat: Annotated[QueryInt, PathParam(ge=0, le=9)],
                 svc: Svc, token: SeatToken) -> Response:
    """The creator re-issues an invited seat's link: a new ``invite``; the seat's
    token (if it was claimed) and its old link stop working at once."""
    return answer(svc.reissue(game_id, token, seat))


@router.post("/api/games/{game_id}/rematch", tags=["games"], response_model=None,
             responses={200: {"model": schemas.Created}, **schemas.ERRORS})
def post_rematch(game_id: str, svc: Svc, token: SeatToken) -> Response:
    """A new game with the same seats once this one is over (the same one if asked
    again); the answer holds the caller's new token (every human's in hot-seat)."""
    return answer(svc.rematch(game_id, token))


@router.get("/api/games/{game_id}/rematch", tags=["games"], response_model=None,
            responses={200: {"model": schemas.RematchSeat}, **schemas.ERRORS})
def get_rematch(game_id: str, svc: Svc, token: SeatToken) -> Response:
    """The caller's seat and new token in the rematch (404 before there is one)."""
    return answer(svc.rematch_seat(game_id, token))
