"""Deployment of a board folder to a MicroPython device: what goes where (plan), and the copying (device)."""
