"""The hub of a simultaneous event: one field scored across many clubs, live (tenace hub), and what clubs push to it."""
