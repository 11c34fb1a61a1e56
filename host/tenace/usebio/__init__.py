"""USEBIO 1.2: the XML results format of club scoring programs, read and written by tenace."""
