"""The director's actions (adjust, correct, erase, resolve, move, finish) on typed inputs, for commands and console."""
