"""USEBIO 1.2 (the EBU's XML results format): reading a pairs event to rescore it, and writing it back."""
