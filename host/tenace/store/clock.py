"""Timestamps as the store writes them: ISO 8601, UTC, to the millisecond, so that text order is time order."""

from __future__ import annotations

from datetime import UTC, datetime


def timestamp(at: datetime | None = None) -> str:
    """`at` (default: now) as "2024-05-14T19:02:03.123+00:00"; a naive datetime is taken as UTC."""
    moment = at if at is not None else datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")
