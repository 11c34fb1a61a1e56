"""Message catalogues, one module per language (en, sr, sk, lv, he), each a dict MESSAGES = {key: text}."""
