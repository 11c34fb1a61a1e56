"""A terminal's settings file as `tenace flash` writes it: "name=value" a line (its id, radio channel, club key)."""


def read_settings(path: str, channel: int) -> dict:
    """{"id": int, "channel": int} from the file at `path`, with "club": 16 bytes when it has a club key (32 hex
    digits); `channel` when it names none. SystemExit without an id (a terminal must not start on the radio under
    another terminal's number) or with a club key that is not one (pairing with it would only ever fail)."""
    found: dict = {"id": 0, "channel": channel}
    try:
        with open(path) as f:
            for line in f:
                name, _, value = line.strip().partition("=")
                if name in found and value:
                    found[name] = int(value)
                elif name == "club" and value:
                    try:
                        club = bytes.fromhex(value)
                    except ValueError:
                        club = b""
                    if len(club) != 16:
                        raise SystemExit("%s: the club key is 32 hex digits (tenace flash writes it)" % path)
                    found["club"] = club
    except OSError:
        pass
    if not found["id"]:
        raise SystemExit("no terminal id: %s needs a line id=N (tenace flash writes it)" % path)
    return found
