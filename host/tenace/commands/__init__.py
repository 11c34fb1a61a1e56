"""The `tenace` subcommands, one module each, registered by tenace.cli."""
