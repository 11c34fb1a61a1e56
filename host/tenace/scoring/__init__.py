"""The scoring engine: matchpoints, IMPs, VPs, adjusted scores and rankings (pure, no I/O)."""
