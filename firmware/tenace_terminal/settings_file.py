"""A terminal's settings file as `tenace flash` writes it: "name=value" a line (its id and radio channel)."""


def read_settings(path: str, channel: int) -> dict:
    """{"id": int, "channel": int} from the file at `path`; `channel` when it names none. SystemExit without an id:
    a terminal must not start on the radio under another terminal's number."""
    found = {"id": 0, "channel": channel}
    try:
        with open(path) as f:
            for line in f:
                name, _, value = line.strip().partition("=")
                if name in found and value:
                    found[name] = int(value)
    except OSError:
        pass
    if not found["id"]:
        raise SystemExit("no terminal id: %s needs a line id=N (tenace flash writes it)" % path)
    return found
