"""Pydantic models of the solo mode's answers, for the OpenAPI page only (server/solo.py
builds the answers; docs/web.md, "Solo")."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SoloChallenge(BaseModel):
    number: int = Field(description="1 to 15")
    id: str = Field(description="its game id (unlisted)", examples=["dartmoor-solo-3"])
    title: str = Field(examples=["at least 8 different bird species"])
    thresholds: dict[str, int] = Field(description="the points each medal needs")
    words: str = Field(description="the challenge and its medals in one sentence")


class SoloChallenges(BaseModel):
    """``GET /api/solo``: Dartmoor's solo challenges, from the solo data."""

    automa: str = Field(examples=["Anna"])
    medals: list[str] = Field(description="lowest first", examples=[["bronze", "silver",
                                                                      "gold"]])
    challenges: list[SoloChallenge]
    provisional: dict[str, str] = Field(description="the readings of the solo rules that "
                                                    "are ours")


class SoloProgress(BaseModel):
    have: int
    need: int
    met: bool
    words: str


class SoloResult(BaseModel):
    have: int
    need: int
    goal_met: bool
    score: int
    medal: str = Field(description="the best medal reached ('' for none)")
    won: bool | None = Field(description="the medal played for (or better) is won; null "
                                         "when none was chosen")
    words: list[str] = Field(description="the result in words, one sentence each")


class SoloPart(BaseModel):
    """The payload's ``solo``: a solo game against the automa, in words."""

    challenge: int
    title: str
    thresholds: dict[str, int]
    medal: str = Field(description="the medal played for ('' for none)")
    words: str = Field(description="the challenge, its medals and the medal played for")
    automa: str
    automa_left: int = Field(description="the automa's cards left before it shuffles again")
    anna_turns: int
    cycles: int = Field(description="how many times the automa deck was shuffled again")
    status: str = Field(examples=["Anna has 12 automa cards left."])
    last: str | None = Field(description="the automa's last turn in words")
    progress: SoloProgress
    result: SoloResult | None = Field(description="at the end: goal, score, medal")
