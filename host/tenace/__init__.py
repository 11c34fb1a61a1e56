"""Tenace host: the tournament director's aggregator (collector, store, scoring, reports)."""

__version__ = "0.1.0"
