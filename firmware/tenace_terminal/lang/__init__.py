"""Message catalogues, one module per language (en, sr, sk, lv, he), each one string TEXT (see messages)."""
