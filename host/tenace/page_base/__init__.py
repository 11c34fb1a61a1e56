"""What every HTML page of Tenace stands on (the public pages, the director's console, the hub's): its words in the
terminal's five languages, the choice among them, and the skeleton and style of a page."""
