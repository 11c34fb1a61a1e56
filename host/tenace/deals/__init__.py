"""Hand records: deals read from PBN and LIN files, kept in the event file, and their double-dummy analysis."""
