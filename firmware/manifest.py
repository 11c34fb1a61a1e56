# Freezes Tenace's firmware packages into a MicroPython image: their bytecode then runs from flash and costs
# no heap (on the unix port, where .mpy files are loaded into RAM, the code is most of the heap a session uses).
# From a MicroPython source tree (1.23 or later), after `make -C mpy-cross`:
#   make -C ports/rp2 BOARD=RPI_PICO submodules all FROZEN_MANIFEST=/path/to/tenace/firmware/manifest.py
#   make -C ports/esp32 BOARD=ESP32_GENERIC_C3 submodules all FROZEN_MANIFEST=/path/to/tenace/firmware/manifest.py
# include, package: the manifest functions of MicroPython's build (tools/manifestfile.py); paths are relative
# to this file. No board file is frozen here: a board's own manifest, hardware/<board>/manifest.py, freezes these
# packages with its board.py and drivers (micropython-lib's ssd1306, nrf24l01); see hardware/README.md.

include("$(PORT_DIR)/boards/manifest.py")  # what the port freezes by default (asyncio, ...)

package("tenace_rules")  # Law 2, contracts, Law 77: the same code as on the laptop
package("tenace_wire")  # frames, CRC, authentication tags, sessions
package("tenace_radio")  # transports and the base-station relay
package("tenace_terminal")  # the table terminal app and its screens
# The message catalogues (tenace_terminal/lang/*.txt) are data, not modules: they go on the filesystem
# (mpremote cp) and tenace_terminal.catalogue.folder is set to where they are.
