"""Tenace rules: Law 2 board conditions, contracts, results and Law 77 scores (pure, no I/O).

The same package runs on the table terminal (MicroPython) and on the director's laptop (CPython).
"""
