"""The routes of the coach and replays (docs/web.md, "The coach, the review and replays").

Contract: Suggest and the after-game review, answered by the app's
:class:`~forest_shuffle.server.coach.CoachDesk` (its own bounds and pools), and replays by
its :class:`~forest_shuffle.server.replays.Replays`; refusals are
:class:`~forest_shuffle.server.service.ServiceError` lines. Suggest and the review are
awaited on the event loop: no request thread waits for a search (the REST routes, the
page and the sockets' actions need those threads).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from forest_shuffle.server import coach_schemas, schemas
from forest_shuffle.server.answers import answer
from forest_shuffle.server.bodies import RecordIn, Seat, Step
from forest_shuffle.server.routes.deps import Address, Desk, ReplaysDep, SeatToken

router = APIRouter()


@router.post("/api/games/{game_id}/suggest", tags=["coach"], response_model=None,
             responses={200: {"model": coach_schemas.Suggestion}, **schemas.ERRORS})
async def post_suggest(game_id: str, desk: Desk, token: SeatToken,
                       address: Address) -> Response:
    """What the hard bot would do in the token's seat, from that seat's view only,
    with its reason in words; nothing is played. 403 for a spectator, not the seat's
    decision, or a game played without help; 429 when the coach is busy."""
    return answer(await desk.suggest_async(game_id, token, address))


@router.get("/api/games/{game_id}/review", tags=["coach"], response_model=None,
            responses={200: {"model": coach_schemas.Review}, **schemas.ERRORS})
async def get_review(game_id: str, desk: Desk, address: Address) -> Response:
    """Once the game is over (409 before): each seat's points after every turn, where
    the final points came from (species, score-pad lines), and the moves the bot would
    have made differently with the points it expected from them."""
    return answer(await desk.review_async(game_id, address))


@router.get("/api/games/{game_id}/replay", tags=["replays"], response_model=None,
            responses={200: {"model": coach_schemas.ReplayFrame}, **schemas.ERRORS})
def get_game_replay(game_id: str, replays: ReplaysDep, step: Step = 0,
                    seat: Seat = None) -> Response:
    """A finished game (409 before) after ``step`` actions, from ``seat``'s view or a
    spectator's, replayed from its record by the engine."""
    return answer(replays.game_replay(game_id).frame(step, seat))


@router.post("/api/replays", tags=["replays"], response_model=None,
             responses={200: {"model": coach_schemas.ReplayFrame}, **schemas.ERRORS})
def post_replay(body: RecordIn, replays: ReplaysDep) -> Response:
    """Load a record file (its text): its ``replay_id`` and the deal (step 0, a
    spectator's view); 400 with one line for a file that is no record or does not
    replay to what it says. A record of any game of the family is replayed as its game."""
    return answer(replays.load_record(body.text).frame(0, None))


@router.get("/api/replays/{replay_id}", tags=["replays"], response_model=None,
            responses={200: {"model": coach_schemas.ReplayFrame}, **schemas.ERRORS})
def get_replay(replay_id: str, replays: ReplaysDep, step: Step = 0,
               seat: Seat = None) -> Response:
    """A loaded record after ``step`` actions, from ``seat``'s view or a spectator's."""
    return answer(replays.record_replay(replay_id).frame(step, seat))
