"""Importing a Bridgemate Control Software .bws file (an Access database read through Debian's mdbtools)."""
