"""The floor shared by the club and the hub: what crosses between them (the push wire format)."""
