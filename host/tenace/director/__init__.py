"""The director's actions (adjust, correct, erase, resolve, move, finish) on typed inputs, for the commands and the
console alike: each front end parses its own arguments or form into these types and names its own fields."""
