"""USEBIO 1.2, the XML results format of club scoring programs: read to rescore (tenace score), written by
tenace report, checked against its schema."""
