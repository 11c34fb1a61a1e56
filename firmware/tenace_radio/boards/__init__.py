"""Board files of the base station: each builds the real drivers and starts the relay (on the device only).

They import machine, network, espnow and nrf24l01 inside functions, so the package imports (and
type-checks) anywhere; base_main.py picks one by sys.platform.
"""
