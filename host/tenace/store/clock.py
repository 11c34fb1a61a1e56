"""Timestamps as the store writes them: ISO 8601, UTC, to the millisecond, so that text order is time order."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    """The time now, in UTC: the one clock the store reads (a test sets it to play an evening in seconds)."""
    return datetime.now(UTC)


def timestamp(at: datetime | None = None) -> str:
    """`at` (default: now) as "2024-05-14T19:02:03.123+00:00"; a naive datetime is taken as UTC."""
    moment = at if at is not None else now()
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")
