"""PBN (Portable Bridge Notation) files: reading deals and score tables, writing PBN 2.1."""
